import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, UpdateDateColumn } from 'typeorm';
import { CustomerEntity } from '../customer-records/customer.entity';
import { TIMESTAMP } from '../database/columns';
import { TenantOwnedEntity } from '../database/tenant-owned.entity';
import { ProductEntity } from '../products/product.entity';

export const SUBSCRIPTION_STATUSES = ['active', 'trialing', 'past_due', 'paused', 'canceled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/**
 * A store subscription as the store last reported it (DESIGN §10), and the one subscription_linked
 * entitlement kept in step with it. The entitlement itself belongs to the entitlements module; only
 * its id is kept here.
 */
@Entity('subscriptions')
// Store id prefix search (GET /v1/search, store-id filters): text_pattern_ops, created by a migration (TypeORM can't declare it).
@Index('subscriptions_store_id_prefix_idx', { synchronize: false })
@Index('subscriptions_store_id_key', ['merchant_id', 'mode', 'store_subscription_id'], { unique: true })
@Index('subscriptions_customer_created_idx', ['merchant_id', 'mode', 'customer_id', 'created_at', 'id'])
// The unfiltered list (the dashboard's Subscriptions page): newest first, by keyset.
@Index('subscriptions_tenant_created_idx', ['merchant_id', 'mode', 'created_at', 'id'])
export class SubscriptionEntity extends TenantOwnedEntity {
  @Column({ type: 'text' })
  store_subscription_id: string;

  @Column({ type: 'text' })
  customer_id: string;

  @ManyToOne(() => CustomerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'customer_id' })
  customer?: CustomerEntity;

  @Column({ type: 'text' })
  product_id: string;

  @ManyToOne(() => ProductEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'product_id' })
  product?: ProductEntity;

  @Column({ type: 'text' })
  status: SubscriptionStatus;

  @Column({ ...TIMESTAMP, nullable: true })
  current_period_end: Date | null;

  @Column({ type: 'boolean', default: false })
  cancel_at_period_end: boolean;

  /** The store's time of the last applied state; an older put changes nothing. */
  @Column({ ...TIMESTAMP, nullable: true })
  store_updated_at: Date | null;

  /** The subscription_linked entitlement, once one was granted (a subscription first seen canceled has none). */
  @Column({ type: 'text', nullable: true })
  entitlement_id: string | null;

  @CreateDateColumn(TIMESTAMP)
  created_at: Date;

  @UpdateDateColumn(TIMESTAMP)
  updated_at: Date;
}
