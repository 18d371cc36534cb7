import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, UpdateDateColumn } from 'typeorm';
import { TIMESTAMP } from '../database/columns';
import { TenantOwnedEntity } from '../database/tenant-owned.entity';

/** The entitlements table's entity class name: named, not imported (the entitlements module imports this one). */
const ENTITLEMENT_ENTITY_NAME = 'EntitlementEntity';

/**
 * A license key (DESIGN §18): one per entitlement of a product that issues keys, written in the
 * grant's transaction. The key itself is never stored: its SHA-256 finds it, and its AES-256-GCM
 * ciphertext shows it to the merchant. Its status is its entitlement's, read from there.
 */
@Entity('license_keys')
@Index('license_keys_tenant_created_idx', ['merchant_id', 'mode', 'created_at', 'id'])
@Index('license_keys_customer_idx', ['merchant_id', 'mode', 'customer_id'])
// The app routes find a key by its hash alone, across tenants: the key is their only credential.
@Index('license_keys_hash_key', ['key_hash'], { unique: true })
@Index('license_keys_entitlement_key', ['entitlement_id'], { unique: true })
export class LicenseKeyEntity extends TenantOwnedEntity {
  @Column({ type: 'text' })
  entitlement_id: string;

  @ManyToOne(ENTITLEMENT_ENTITY_NAME, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'entitlement_id' })
  entitlement?: unknown;

  @Column({ type: 'text' })
  customer_id: string;

  @Column({ type: 'text' })
  product_id: string;

  /** The customer's test clock (DESIGN §14), copied from the entitlement: its activations live at the clock's time. */
  @Column({ type: 'text', nullable: true })
  test_clock_id: string | null;

  /** SHA-256 (hex) of the key in its canonical form (25 characters, no dashes). */
  @Column({ type: 'text' })
  key_hash: string;

  /** The key, encrypted with AES-256-GCM (license-key-cipher.ts). */
  @Column({ type: 'text' })
  key_encrypted: string;

  /** Devices at once; null = unlimited. The product's at the grant, then this customer's own (PATCH). */
  @Column({ type: 'integer', nullable: true })
  activation_limit: number | null;

  /** Floating seats: an activation not seen for this long is released; null = never. The product's at the grant. */
  @Column({ type: 'integer', nullable: true })
  activation_ttl_seconds: number | null;

  @CreateDateColumn(TIMESTAMP)
  created_at: Date;

  @UpdateDateColumn(TIMESTAMP)
  updated_at: Date;
}
