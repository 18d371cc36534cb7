import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { Tenant } from '../auth/tenant';
import { fetchPageWithTotal } from '../pagination/keyset';
import { PageRequest } from '../pagination/page';
import { ProductEntity } from './product.entity';

/** The writable columns of a product (identity, tenant and timestamps are the repository's). */
export type ProductChanges = Partial<
  Pick<
    ProductEntity,
    | 'name'
    | 'description'
    | 'store_product_id'
    | 'store_variant_ids'
    | 'entitlement_type'
    | 'access_duration_days'
    | 'usage_limit'
    | 'metadata'
    | 'fulfillment_config'
    | 'status'
  >
>;

export type NewProduct = Required<ProductChanges> & { id: string };

@Injectable()
export class ProductsRepository {
  constructor(private readonly dataSource: DataSource) {}

  findById(tenant: Tenant, productId: string, manager: EntityManager = this.dataSource.manager): Promise<ProductEntity | null> {
    return manager.findOne(ProductEntity, {
      where: { id: productId, merchant_id: tenant.merchantId, mode: tenant.mode },
    });
  }

  /** Reads and row-locks the product for the rest of the transaction (PATCH, archive). */
  findByIdForUpdate(manager: EntityManager, tenant: Tenant, productId: string): Promise<ProductEntity | null> {
    return manager.findOne(ProductEntity, {
      where: { id: productId, merchant_id: tenant.merchantId, mode: tenant.mode },
      lock: { mode: 'pessimistic_write' },
    });
  }

  /** Inserts; a taken store_product_id fails with the unique violation of products_store_id_key. */
  async insert(manager: EntityManager, tenant: Tenant, product: NewProduct): Promise<ProductEntity> {
    // jsonb columns hold Record<string, unknown>, which TypeORM's deep-partial type cannot express.
    const row = { ...product, merchant_id: tenant.merchantId, mode: tenant.mode } as QueryDeepPartialEntity<ProductEntity>;
    await manager.insert(ProductEntity, row);
    return this.requireInTransaction(manager, tenant, product.id);
  }

  async update(manager: EntityManager, tenant: Tenant, productId: string, changes: ProductChanges): Promise<ProductEntity> {
    const criteria = { id: productId, merchant_id: tenant.merchantId, mode: tenant.mode };
    await manager.update(ProductEntity, criteria, changes as QueryDeepPartialEntity<ProductEntity>);
    return this.requireInTransaction(manager, tenant, productId);
  }

  /** Which of `fileIds` are files of this merchant and mode. */
  async findExistingFileIds(manager: EntityManager, tenant: Tenant, fileIds: string[]): Promise<string[]> {
    if (fileIds.length === 0) return [];
    const rows: Array<{ id: string }> = await manager.query(
      'SELECT id FROM files WHERE merchant_id = $1 AND mode = $2 AND id = ANY($3)',
      [tenant.merchantId, tenant.mode, fileIds],
    );
    return rows.map((row) => row.id);
  }

  /** One keyset page (limit + 1 rows) and the total, newest first. */
  async list(tenant: Tenant, page: PageRequest): Promise<{ rows: ProductEntity[]; total: number }> {
    const base = () =>
      this.dataSource.manager
        .createQueryBuilder(ProductEntity, 'product')
        .where('product.merchant_id = :merchantId AND product.mode = :mode', {
          merchantId: tenant.merchantId,
          mode: tenant.mode,
        });
    return fetchPageWithTotal(base, 'product', page);
  }

  private async requireInTransaction(manager: EntityManager, tenant: Tenant, productId: string): Promise<ProductEntity> {
    const product = await this.findById(tenant, productId, manager);
    if (!product) throw new Error(`Product ${productId} vanished inside its own transaction`);
    return product;
  }
}
