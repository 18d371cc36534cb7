import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { TIMESTAMP } from '../database/columns';
import { TenantOwnedEntity } from '../database/tenant-owned.entity';
import { LicenseKeyEntity } from './license-key.entity';

/**
 * A device a license key is active on (DESIGN §18), named by the app's fingerprint. Deactivating
 * deletes it; so does the sweep, when its key has floating seats and it was not seen for
 * `activation_ttl_seconds`.
 */
@Entity('license_activations')
// One activation per device: activating the same fingerprint again returns it.
@Index('license_activations_fingerprint_key', ['license_key_id', 'fingerprint'], { unique: true })
// The sweep reads the least recently seen activations first.
@Index('license_activations_seen_idx', ['last_seen_at'])
export class LicenseActivationEntity extends TenantOwnedEntity {
  @Column({ type: 'text' })
  license_key_id: string;

  @ManyToOne(() => LicenseKeyEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'license_key_id' })
  license_key?: LicenseKeyEntity;

  @Column({ type: 'text' })
  fingerprint: string;

  @Column({ type: 'text', nullable: true })
  name: string | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  metadata: Record<string, unknown>;

  /** The key's test clock, copied: `created_at` and `last_seen_at` are at the clock's time then. */
  @Column({ type: 'text', nullable: true })
  test_clock_id: string | null;

  /** At the customer's now (its test clock's time when bound to one). */
  @Column(TIMESTAMP)
  created_at: Date;

  /** The last activate or heartbeat, at the customer's now. */
  @Column(TIMESTAMP)
  last_seen_at: Date;
}
