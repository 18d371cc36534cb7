import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { MerchantEntity } from '../auth/merchant.entity';
import type { ApiMode } from '../database/tenant';
import { BIGINT_AS_NUMBER } from '../database/bigint-number.transformer';
import { TIMESTAMP } from '../database/columns';

/**
 * Confirmed storage of one merchant in one mode. The row is also the lock every quota decision
 * takes (SELECT … FOR UPDATE), so reservations and downloads of one merchant serialize.
 * Reserved storage is derived from PENDING files whose upload URL has not expired.
 */
@Entity('storage_usage')
export class StorageUsageEntity {
  @PrimaryColumn({ type: 'text' })
  merchant_id: string;

  @ManyToOne(() => MerchantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'merchant_id' })
  merchant?: MerchantEntity;

  @PrimaryColumn({ type: 'text' })
  mode: ApiMode;

  @Column({ type: 'bigint', default: 0, transformer: BIGINT_AS_NUMBER })
  storage_used_bytes: number;

  @UpdateDateColumn(TIMESTAMP)
  updated_at: Date;
}
