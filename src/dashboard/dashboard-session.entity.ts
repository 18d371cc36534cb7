import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { ApiMode } from '../database/tenant';
import { TIMESTAMP } from '../database/columns';
import { DashboardUserEntity } from './dashboard-user.entity';

/**
 * A signed-in browser. A database row, so every instance knows it and signing out ends it
 * everywhere; only the cookie token's SHA-256 is stored.
 */
@Entity('dashboard_sessions')
@Index('dashboard_sessions_user_idx', ['user_id'])
// The Pruner deletes signed-out and idle sessions by these (dashboard-pruning.repository.ts).
@Index('dashboard_sessions_ended_idx', ['ended_at'], { where: 'ended_at IS NOT NULL' })
@Index('dashboard_sessions_last_seen_idx', ['last_seen_at'])
// Open sessions made without a checksum, reloaded every minute by each instance (LegacyCredentialFilter).
@Index('dashboard_sessions_legacy_idx', ['token_hash'], { where: 'checksummed = false AND ended_at IS NULL' })
export class DashboardSessionEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Index('dashboard_sessions_token_hash_key', { unique: true })
  @Column({ type: 'text' })
  token_hash: string;

  @Column({ type: 'text' })
  user_id: string;

  @ManyToOne(() => DashboardUserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: DashboardUserEntity;

  @Column({ type: 'text' })
  merchant_id: string;

  /** The dashboard's test/live switch: the mode every /v1 call of this session acts in. */
  @Column({ type: 'text' })
  mode: ApiMode;

  /** Sent back as X-CSRF-Token on every state-changing request. */
  @Column({ type: 'text' })
  csrf_token: string;

  @CreateDateColumn(TIMESTAMP)
  created_at: Date;

  /** Idle expiry counts from here; refreshed at most once a minute. */
  @Column(TIMESTAMP)
  last_seen_at: Date;

  @Column({ ...TIMESTAMP, nullable: true })
  ended_at: Date | null;

  /** Whether the token ends with its keyed checksum (credential-checksum.ts); false for sessions started before, or by older versions. */
  @Column({ type: 'boolean', default: false })
  checksummed: boolean;
}
