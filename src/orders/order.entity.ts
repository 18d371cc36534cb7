import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, UpdateDateColumn } from 'typeorm';
import { CustomerEntity } from '../customer-records/customer.entity';
import { TIMESTAMP } from '../database/columns';
import { TenantOwnedEntity } from '../database/tenant-owned.entity';

export const ORDER_STATUSES = ['active', 'partially_refunded', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** A store order (DESIGN §10): one per store_order_id per merchant and mode; posting it again upserts. */
@Entity('orders')
// The upsert's row: concurrent posts of one order meet on this index, then on the row's lock.
// Store id prefix search (GET /v1/search, store-id filters): text_pattern_ops, created by a migration (TypeORM can't declare it).
@Index('orders_store_id_prefix_idx', { synchronize: false })
@Index('orders_store_id_key', ['merchant_id', 'mode', 'store_order_id'], { unique: true })
@Index('orders_customer_created_idx', ['merchant_id', 'mode', 'customer_id', 'created_at', 'id'])
// The unfiltered list (the dashboard's Orders page): newest first, by keyset.
@Index('orders_tenant_created_idx', ['merchant_id', 'mode', 'created_at', 'id'])
export class OrderEntity extends TenantOwnedEntity {
  @Column({ type: 'text' })
  store_order_id: string;

  @Column({ type: 'text' })
  customer_id: string;

  @ManyToOne(() => CustomerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'customer_id' })
  customer?: CustomerEntity;

  @Column({ type: 'text' })
  status: OrderStatus;

  @Column({ ...TIMESTAMP, nullable: true })
  placed_at: Date | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  metadata: Record<string, unknown>;

  @CreateDateColumn(TIMESTAMP)
  created_at: Date;

  @UpdateDateColumn(TIMESTAMP)
  updated_at: Date;
}
