import { Column, CreateDateColumn, Entity, Index } from 'typeorm';
import { TIMESTAMP } from '../database/columns';
import { TenantOwnedEntity } from '../database/tenant-owned.entity';

/** A merchant's customer, created implicitly the first time a store_customer_id is seen. */
@Entity('customers')
@Index('customers_store_id_key', ['merchant_id', 'mode', 'store_customer_id'], { unique: true })
// Prefix search of store ids (GET /v1/customers?search=): LIKE 'prefix%' needs text_pattern_ops
// under any collation but C, which TypeORM can't declare; the migration creates it.
@Index('customers_store_id_prefix_idx', { synchronize: false })
export class CustomerEntity extends TenantOwnedEntity {
  @Column({ type: 'text' })
  store_customer_id: string;

  @CreateDateColumn(TIMESTAMP)
  created_at: Date;
}
