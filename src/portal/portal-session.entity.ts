import { Column, CreateDateColumn, Entity, Index } from 'typeorm';
import { TIMESTAMP } from '../database/columns';
import { TenantOwnedEntity } from '../database/tenant-owned.entity';

/**
 * A customer portal session (DESIGN §19): first a one-time link (`link_token_hash`, valid until
 * `link_expires_at`), then, once the link is opened, the browser session it started
 * (`cookie_token_hash`, 12 h idle). One row for both, so opening the link is one conditional
 * UPDATE: two openings can't both win. Only SHA-256 hashes of the tokens are stored.
 */
@Entity('portal_sessions')
@Index('portal_sessions_link_token_hash_key', ['link_token_hash'], { unique: true })
@Index('portal_sessions_cookie_token_hash_key', ['cookie_token_hash'], { unique: true, where: 'cookie_token_hash IS NOT NULL' })
@Index('portal_sessions_customer_idx', ['merchant_id', 'mode', 'customer_id'])
// The Pruner deletes long-idle sessions and long-expired unopened links by these (portal-pruning.ts).
@Index('portal_sessions_last_seen_idx', ['last_seen_at'], { where: 'last_seen_at IS NOT NULL' })
@Index('portal_sessions_unopened_expires_idx', ['link_expires_at'], { where: 'opened_at IS NULL' })
export class PortalSessionEntity extends TenantOwnedEntity {
  @Column({ type: 'text' })
  customer_id: string;

  /** Where the portal's "Back" link goes; https (http on loopback), or null. */
  @Column({ type: 'text', nullable: true })
  return_url: string | null;

  @Column({ type: 'text' })
  link_token_hash: string;

  @Column(TIMESTAMP)
  link_expires_at: Date;

  /** Set by the one opening of the link that wins; a link works once. */
  @Column({ ...TIMESTAMP, nullable: true })
  opened_at: Date | null;

  @Column({ type: 'text', nullable: true })
  cookie_token_hash: string | null;

  /** Sent back as X-CSRF-Token on every state-changing request of the portal. */
  @Column({ type: 'text', nullable: true })
  csrf_token: string | null;

  /** Idle expiry counts from here; refreshed at most once a minute. */
  @Column({ ...TIMESTAMP, nullable: true })
  last_seen_at: Date | null;

  @Column({ ...TIMESTAMP, nullable: true })
  ended_at: Date | null;

  @CreateDateColumn(TIMESTAMP)
  created_at: Date;
}
