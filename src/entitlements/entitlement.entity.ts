import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, UpdateDateColumn } from 'typeorm';
import { CustomerEntity } from '../customer-records/customer.entity';
import { TIMESTAMP } from '../database/columns';
import { ProductEntity } from '../products/product.entity';
import { TenantOwnedEntity } from '../database/tenant-owned.entity';
import { boundReachedSql, USES_RAN_OUT_COLUMN } from './effective-status';

export const ENTITLEMENT_STATUSES = ['active', 'suspended', 'revoked', 'expired', 'pending'] as const;
export type EntitlementStatus = (typeof ENTITLEMENT_STATUSES)[number];

export const ENTITLEMENT_SOURCES = ['order', 'manual', 'rule', 'api', 'bundle', 'subscription', 'flow', 'import'] as const;
export type EntitlementSource = (typeof ENTITLEMENT_SOURCES)[number];

/**
 * A customer's right to a product. The stored status may lag behind time/usage expiry until the
 * sweeper persists it; every read computes the effective status (see effective-status.ts).
 */
@Entity('entitlements')
// The access check: one customer, one product (store ids resolve through the unique indexes).
@Index('entitlements_check_idx', ['merchant_id', 'mode', 'customer_id', 'product_id'])
// Lists in creation order (keyset), overall and per customer / product.
@Index('entitlements_tenant_created_idx', ['merchant_id', 'mode', 'created_at', 'id'])
@Index('entitlements_customer_created_idx', ['merchant_id', 'mode', 'customer_id', 'created_at', 'id'])
@Index('entitlements_product_created_idx', ['merchant_id', 'mode', 'product_id', 'created_at', 'id'])
// A bundle parent's children (cascades, DESIGN §10).
@Index('entitlements_parent_idx', ['parent_entitlement_id'], { where: 'parent_entitlement_id IS NOT NULL' })
// The sweeper only looks at active rows that can expire.
@Index('entitlements_sweep_expires_idx', ['expires_at'], { where: "status = 'active' AND expires_at IS NOT NULL" })
// A test clock's entitlements, for its advance (DESIGN §14).
@Index('entitlements_test_clock_idx', ['test_clock_id'], { where: "test_clock_id IS NOT NULL AND status = 'active'" })
// Rows whose uses ran out. Keyed and filtered on the stored flag, not on usage_count: a use changes
// no indexed column (until the one that reaches the limit), so its update is HOT (docs/scaling.md).
@Index('entitlements_sweep_usage_idx', ['id'], { where: `status = 'active' AND ${USES_RAN_OUT_COLUMN}` })
export class EntitlementEntity extends TenantOwnedEntity {
  @Column({ type: 'text' })
  customer_id: string;

  @ManyToOne(() => CustomerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'customer_id' })
  customer?: CustomerEntity;

  /**
   * The customer's test clock (DESIGN §14), copied from the customer (a binding never changes):
   * the access check and every read take "now" from it row by row, and the real-time sweeper
   * skips rows that have one.
   */
  @Column({ type: 'text', nullable: true })
  test_clock_id: string | null;

  @Column({ type: 'text' })
  product_id: string;

  @ManyToOne(() => ProductEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'product_id' })
  product?: ProductEntity;

  @Column({ type: 'text' })
  status: EntitlementStatus;

  @Column(TIMESTAMP)
  granted_at: Date;

  @Column({ ...TIMESTAMP, nullable: true })
  expires_at: Date | null;

  @Column({ ...TIMESTAMP, nullable: true })
  revoked_at: Date | null;

  @Column({ type: 'text', nullable: true })
  revocation_reason: string | null;

  @Column({ ...TIMESTAMP, nullable: true })
  suspended_at: Date | null;

  @Column({ type: 'text', nullable: true })
  suspension_reason: string | null;

  @Column({ type: 'integer', default: 0 })
  usage_count: number;

  @Column({ type: 'integer', nullable: true })
  usage_limit: number | null;

  /**
   * Whether the uses have run out, computed by PostgreSQL from usage_count and usage_limit (the
   * rule of effective-status.ts) and stored, so the sweeper's partial index can name it instead of
   * usage_count: a use then changes no indexed column and stays a HOT update. Never written.
   */
  @Column({ type: 'boolean', generatedType: 'STORED', asExpression: boundReachedSql('uses', null, ''), insert: false, update: false })
  readonly uses_ran_out: boolean;

  @Column({ type: 'text' })
  source: EntitlementSource;

  @Column({ type: 'text', nullable: true })
  store_order_id: string | null;

  @Column({ type: 'text', nullable: true })
  store_line_item_id: string | null;

  @Column({ type: 'text', nullable: true })
  parent_entitlement_id: string | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  metadata: Record<string, unknown>;

  @CreateDateColumn(TIMESTAMP)
  created_at: Date;

  @UpdateDateColumn(TIMESTAMP)
  updated_at: Date;
}
