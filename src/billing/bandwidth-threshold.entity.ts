import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { MerchantEntity } from '../auth/merchant.entity';
import type { ApiMode } from '../database/tenant';
import { BIGINT_AS_NUMBER } from '../database/bigint-number.transformer';
import { TIMESTAMP } from '../database/columns';

/**
 * A bandwidth threshold (80 or 100 % of the included bandwidth) a merchant's mode reached in a
 * month. Its key is the once-only guarantee of usage.bandwidth_threshold: the event is published
 * in the transaction that inserts the row, and a second insert does nothing.
 */
@Entity('bandwidth_thresholds')
export class BandwidthThresholdEntity {
  @PrimaryColumn({ type: 'text' })
  merchant_id: string;

  @ManyToOne(() => MerchantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'merchant_id' })
  merchant?: MerchantEntity;

  @PrimaryColumn({ type: 'text' })
  mode: ApiMode;

  @PrimaryColumn({ type: 'text' })
  month: string;

  /** Percent of the included bandwidth: 80 or 100. */
  @PrimaryColumn({ type: 'smallint' })
  threshold: number;

  /** The month's bandwidth when it was reached. */
  @Column({ type: 'bigint', transformer: BIGINT_AS_NUMBER })
  bandwidth_bytes: number;

  @Column({ type: 'bigint', transformer: BIGINT_AS_NUMBER })
  included_bandwidth_bytes: number;

  @CreateDateColumn(TIMESTAMP)
  created_at: Date;
}
