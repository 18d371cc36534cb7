import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { TIMESTAMP } from '../database/columns';
import { TenantOwnedEntity } from '../database/tenant-owned.entity';
import { TestClockEntity } from '../test-clock-records/test-clock.entity';

/** A merchant's customer, created implicitly the first time a store_customer_id is seen. */
@Entity('customers')
@Index('customers_store_id_key', ['merchant_id', 'mode', 'store_customer_id'], { unique: true })
// Prefix search of store ids (GET /v1/customers?search=): LIKE 'prefix%' needs text_pattern_ops
// under any collation but C, which TypeORM can't declare; the migration creates it.
@Index('customers_store_id_prefix_idx', { synchronize: false })
// A test clock's customers (advance and delete, DESIGN §14).
@Index('customers_test_clock_idx', ['test_clock_id'], { where: 'test_clock_id IS NOT NULL' })
export class CustomerEntity extends TenantOwnedEntity {
  @Column({ type: 'text' })
  store_customer_id: string;

  /** The test clock the customer was bound to at creation (test mode, DESIGN §14); never changes. */
  @Column({ type: 'text', nullable: true })
  test_clock_id: string | null;

  // Deleting a clock deletes its customers, and through theirs their entitlements, orders and subscriptions.
  @ManyToOne(() => TestClockEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'test_clock_id' })
  test_clock?: TestClockEntity;

  @CreateDateColumn(TIMESTAMP)
  created_at: Date;
}
