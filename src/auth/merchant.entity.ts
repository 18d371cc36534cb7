import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { TIMESTAMP } from '../database/columns';
import { BIGINT_AS_NUMBER } from '../database/bigint-number.transformer';
import type { Plan } from './plan';

export { PLANS, type Plan } from './plan';

@Entity('merchants')
export class MerchantEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  plan: Plan;

  // The merchant's own terms (an enterprise contract, DESIGN §17); null: the plan's.
  @Column({ type: 'bigint', nullable: true, transformer: BIGINT_AS_NUMBER })
  max_file_size_bytes: number | null;

  @Column({ type: 'bigint', nullable: true, transformer: BIGINT_AS_NUMBER })
  storage_bytes: number | null;

  @Column({ type: 'bigint', nullable: true, transformer: BIGINT_AS_NUMBER })
  bandwidth_bytes: number | null;

  /** Minor units of OVERAGE_CURRENCY per GiB of overage. */
  @Column({ type: 'bigint', nullable: true, transformer: BIGINT_AS_NUMBER })
  overage_price_per_gib: number | null;

  /** The Stripe customer whose meter live statements are reported to. */
  @Column({ type: 'text', nullable: true })
  stripe_customer_id: string | null;

  @CreateDateColumn(TIMESTAMP)
  created_at: Date;

  @UpdateDateColumn(TIMESTAMP)
  updated_at: Date;
}
