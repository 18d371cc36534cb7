import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { MerchantEntity } from '../auth/merchant.entity';
import type { ApiMode } from '../database/tenant';
import { BIGINT_AS_NUMBER } from '../database/bigint-number.transformer';
import { TIMESTAMP } from '../database/columns';

/**
 * Storage reserved for a pending upload: its declared size counts against the plan until the
 * upload URL expires or the upload is confirmed (then it moves to storage_usage). Keyed by the
 * file's id, which billing treats as an opaque reservation id (no foreign key: billing does not
 * depend on the files module).
 */
@Entity('storage_reservations')
@Index('storage_reservations_tenant_expires_idx', ['merchant_id', 'mode', 'expires_at'])
export class StorageReservationEntity {
  @PrimaryColumn({ type: 'text' })
  file_id: string;

  @Column({ type: 'text' })
  merchant_id: string;

  @ManyToOne(() => MerchantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'merchant_id' })
  merchant?: MerchantEntity;

  @Column({ type: 'text' })
  mode: ApiMode;

  @Column({ type: 'bigint', transformer: BIGINT_AS_NUMBER })
  bytes: number;

  @Column(TIMESTAMP)
  expires_at: Date;

  @CreateDateColumn(TIMESTAMP)
  created_at: Date;
}
