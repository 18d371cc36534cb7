import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TIMESTAMP } from '../database/columns';
import { MerchantEntity } from './merchant.entity';
import type { ApiMode } from '../database/tenant';

@Entity('api_keys')
@Index('api_keys_merchant_idx', ['merchant_id', 'created_at'])
// The keys made without a checksum, reloaded every minute by each instance (LegacyCredentialFilter).
@Index('api_keys_legacy_idx', ['key_hash'], { where: 'checksummed = false AND revoked_at IS NULL' })
export class ApiKeyEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ type: 'text' })
  merchant_id: string;

  @ManyToOne(() => MerchantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'merchant_id' })
  merchant?: MerchantEntity;

  /** SHA-256 (hex) of the whole key; the key itself is never stored. */
  @Index('api_keys_hash_key', { unique: true })
  @Column({ type: 'text' })
  key_hash: string;

  /** First 12 characters, e.g. `eh_test_AbCd`, to recognise a key in lists. */
  @Column({ type: 'text' })
  prefix: string;

  @Column({ type: 'text' })
  mode: ApiMode;

  @Column({ type: 'text', array: true })
  scopes: string[];

  @Column({ type: 'text', nullable: true })
  name: string | null;

  @CreateDateColumn(TIMESTAMP)
  created_at: Date;

  @Column({ ...TIMESTAMP, nullable: true })
  last_used_at: Date | null;

  @Column({ ...TIMESTAMP, nullable: true })
  revoked_at: Date | null;

  /** Whether the key ends with its keyed checksum (credential-checksum.ts); false for keys made before, and by older versions. */
  @Column({ type: 'boolean', default: false })
  checksummed: boolean;
}
