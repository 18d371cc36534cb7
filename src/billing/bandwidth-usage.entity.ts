import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { MerchantEntity } from '../auth/merchant.entity';
import type { ApiMode } from '../database/tenant';
import { BIGINT_AS_NUMBER } from '../database/bigint-number.transformer';
import { TIMESTAMP } from '../database/columns';

/** Download bandwidth of one merchant and mode in one calendar month (UTC, 'YYYY-MM'). */
@Entity('bandwidth_usage')
export class BandwidthUsageEntity {
  @PrimaryColumn({ type: 'text' })
  merchant_id: string;

  @ManyToOne(() => MerchantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'merchant_id' })
  merchant?: MerchantEntity;

  @PrimaryColumn({ type: 'text' })
  mode: ApiMode;

  @PrimaryColumn({ type: 'text' })
  month: string;

  @Column({ type: 'bigint', default: 0, transformer: BIGINT_AS_NUMBER })
  bandwidth_bytes: number;

  /** Bytes beyond the plan's included bandwidth (paid plans; the free plan refuses instead). */
  @Column({ type: 'bigint', default: 0, transformer: BIGINT_AS_NUMBER })
  overage_bytes: number;

  @UpdateDateColumn(TIMESTAMP)
  updated_at: Date;
}
