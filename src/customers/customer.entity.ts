import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { MerchantEntity } from '../auth/merchant.entity';
import type { ApiMode } from '../auth/tenant';
import { TIMESTAMP } from '../database/columns';

/** A merchant's customer, created implicitly the first time a store_customer_id is seen. */
@Entity('customers')
@Index('customers_store_id_key', ['merchant_id', 'mode', 'store_customer_id'], { unique: true })
export class CustomerEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ type: 'text' })
  merchant_id: string;

  @ManyToOne(() => MerchantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'merchant_id' })
  merchant?: MerchantEntity;

  @Column({ type: 'text' })
  mode: ApiMode;

  @Column({ type: 'text' })
  store_customer_id: string;

  @CreateDateColumn(TIMESTAMP)
  created_at: Date;
}
