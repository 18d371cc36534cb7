import { Column, CreateDateColumn, Entity, Index, UpdateDateColumn } from 'typeorm';
import { TIMESTAMP } from '../database/columns';
import { TenantOwnedEntity } from '../database/tenant-owned.entity';

export const ENTITLEMENT_TYPES = ['permanent', 'time_limited', 'usage_limited', 'subscription_linked'] as const;
export type EntitlementType = (typeof ENTITLEMENT_TYPES)[number];

export const DELIVERY_METHODS = ['FILE', 'URL', 'INSTRUCTIONS'] as const;
export type DeliveryMethod = (typeof DELIVERY_METHODS)[number];

export const PRODUCT_STATUSES = ['active', 'archived'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

/**
 * How access is delivered, as stored. The product's files are not in it: they are rows of
 * product_files (ProductFileEntity); responses show them as `fulfillment_config.file_ids`.
 */
export interface FulfillmentConfig {
  delivery_method: DeliveryMethod;
  access_url: string | null;
  access_instructions: string | null;
}

/**
 * License keys (DESIGN §18): a product with this config gives each entitlement granted for it a
 * key; `activation_limit` null is unlimited, `activation_ttl_seconds` null keeps activations until
 * deactivated (set: floating seats, released when not seen for that long).
 */
export interface LicenseConfig {
  activation_limit: number | null;
  activation_ttl_seconds: number | null;
}

/** A fulfillment config with the product's file links, in order: the API's shape. */
export interface FulfillmentWithFiles extends FulfillmentConfig {
  file_ids: string[];
}

@Entity('products')
// Store id prefix search (GET /v1/search, store-id filters): text_pattern_ops, created by a migration (TypeORM can't declare it).
@Index('products_store_id_prefix_idx', { synchronize: false })
@Index('products_tenant_created_idx', ['merchant_id', 'mode', 'created_at', 'id'])
@Index('products_store_id_key', ['merchant_id', 'mode', 'store_product_id'], {
  unique: true,
  where: 'store_product_id IS NOT NULL',
})
export class ProductEntity extends TenantOwnedEntity {
  @Column({ type: 'text', nullable: true })
  store_product_id: string | null;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  store_variant_ids: string[];

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'text' })
  entitlement_type: EntitlementType;

  @Column({ type: 'integer', nullable: true })
  access_duration_days: number | null;

  @Column({ type: 'integer', nullable: true })
  usage_limit: number | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  metadata: Record<string, unknown>;

  @Column({ type: 'jsonb' })
  fulfillment_config: FulfillmentConfig;

  @Column({ type: 'text', default: 'active' })
  status: ProductStatus;

  /** null: the product issues no license keys. */
  @Column({ type: 'jsonb', nullable: true })
  license: LicenseConfig | null;

  @CreateDateColumn(TIMESTAMP)
  created_at: Date;

  @UpdateDateColumn(TIMESTAMP)
  updated_at: Date;
}
