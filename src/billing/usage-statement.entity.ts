import { Column, CreateDateColumn, Entity, Index, Unique } from 'typeorm';
import { BIGINT_AS_NUMBER } from '../database/bigint-number.transformer';
import { TIMESTAMP } from '../database/columns';
import { TenantOwnedEntity } from '../database/tenant-owned.entity';

/**
 * One merchant's and mode's closed month (DESIGN §17): written once when the month ends, never
 * changed after but for the outcome of its Stripe report. The unique (merchant, mode, month) is
 * what makes a close that runs twice, concurrently or after a crash, write one statement.
 */
@Entity('usage_statements')
@Unique('usage_statements_tenant_month_key', ['merchant_id', 'mode', 'month'])
@Index('usage_statements_tenant_created_idx', ['merchant_id', 'mode', 'created_at', 'id'])
// The operator's listing of a month across merchants.
@Index('usage_statements_month_idx', ['month', 'mode'])
// The Stripe reporter's queue: live statements with an amount, not reported yet.
@Index('usage_statements_report_due_idx', ['next_report_at'], { where: 'next_report_at IS NOT NULL' })
export class UsageStatementEntity extends TenantOwnedEntity {
  /** 'YYYY-MM', a calendar month in UTC. */
  @Column({ type: 'text' })
  month: string;

  @Column({ type: 'text' })
  plan: string;

  @Column({ type: 'bigint', transformer: BIGINT_AS_NUMBER })
  included_bandwidth_bytes: number;

  @Column({ type: 'bigint', transformer: BIGINT_AS_NUMBER })
  bandwidth_bytes: number;

  @Column({ type: 'bigint', transformer: BIGINT_AS_NUMBER })
  overage_bytes: number;

  /** Minor units per GiB; null on the free plan (a hard cap, no overage). */
  @Column({ type: 'bigint', nullable: true, transformer: BIGINT_AS_NUMBER })
  price_per_gib: number | null;

  @Column({ type: 'text' })
  currency: string;

  /** Minor units: overage bytes × price ÷ 2^30, rounded half up. */
  @Column({ type: 'bigint', transformer: BIGINT_AS_NUMBER })
  amount: number;

  @CreateDateColumn(TIMESTAMP)
  created_at: Date;

  /** When Stripe accepted the meter event; null until then (or when nothing is reported). */
  @Column({ ...TIMESTAMP, nullable: true })
  reported_at: Date | null;

  /** The last report's failure, kept while it is retried and after it gave up. */
  @Column({ type: 'text', nullable: true })
  report_error: string | null;

  @Column({ type: 'integer', default: 0 })
  report_attempts: number;

  /** When the next report attempt is due; null: nothing (more) to report. */
  @Column({ ...TIMESTAMP, nullable: true })
  next_report_at: Date | null;
}
