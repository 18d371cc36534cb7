import { searchTable, type SearchableTable, type SearchHit } from '../database/search-hit';
import { isValidId } from '../ids/id';
import { Injectable } from '@nestjs/common';
import { Brackets, In } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { entityFromJson, ReadPart, WritePart } from '../database/combined-statement';
import { grantableIncludedSql, grantableSql } from './product-lookup.sql';
import type { Tenant } from '../database/tenant';
import { likeContains } from '../database/like-pattern';
import { TenantTable } from '../database/tenant-table';
import type { Reader, Transaction } from '../database/transaction';
import { fetchPageWithTotal } from '../pagination/keyset';
import { PageRequest } from '../pagination/page';
import { ProductEntity, ProductStatus } from './product.entity';

export interface ProductFilters {
  /** An exact id or store product id, or a part of the name (case-insensitive). */
  search?: string;
  status?: ProductStatus;
  ids?: string[];
}

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
    | 'license'
  >
>;

export type NewProduct = Required<ProductChanges> & { id: string };

/** A product named by our id or by the store's id. */
export type ProductReference = { id: string; storeId?: undefined } | { id?: undefined; storeId: string };

const PRODUCT_SEARCH: SearchableTable = { table: 'products', storeIdColumn: 'store_product_id', labelSql: 'name' };

@Injectable()
export class ProductsRepository {
  private readonly table = new TenantTable(ProductEntity, 'product');

  findById(db: Reader, tenant: Tenant, productId: string): Promise<ProductEntity | null> {
    return this.table.findOne(db.manager, tenant, { id: productId });
  }

  /**
   * The product a grant names (null when none), with the grantable products it includes in the
   * bundle's order ([] for a product that is no bundle), as a part of the grant's combined read.
   * A malformed id is passed as null and matches nothing. `lock` (in a transaction): the named
   * product's row is share-locked, so an archive that commits first is seen and one that comes
   * later waits for the grant to commit.
   */
  forGrantPart(tenant: Tenant, id: string | null, storeId: string | null, lock: boolean): ReadPart<{ product: ProductEntity; included: ProductEntity[] } | null> {
    return {
      render: (parameters) => {
        const merchant = parameters.text(tenant.merchantId);
        const mode = parameters.text(tenant.mode);
        return `SELECT jsonb_build_object('product', to_jsonb(product), 'included', coalesce((
            SELECT jsonb_agg(to_jsonb(included) ORDER BY item.position) FROM ${grantableIncludedSql(merchant, mode, 'item.bundle_product_id = product.id')}), '[]'::jsonb))
          FROM products product WHERE product.merchant_id = ${merchant} AND product.mode = ${mode}
            AND (product.id = ${parameters.text(id)} OR product.store_product_id = ${parameters.text(storeId)})${lock ? ' FOR SHARE OF product' : ''}`;
      },
      parse: (value, manager) => {
        if (value === null || typeof value !== 'object') return null;
        const { product, included } = value as { product: Record<string, unknown>; included: Array<Record<string, unknown>> };
        return { product: entityFromJson(manager, ProductEntity, product), included: included.map((row) => entityFromJson(manager, ProductEntity, row)) };
      },
    };
  }

  /**
   * A part of a combined write that share-locks the product while it is grantable, refused
   * (`refusal`) when it is not (archived meanwhile): the grant's write commits before an archive
   * or not at all.
   */
  grantableLockPart(tenant: Tenant, productId: string, refusal: string): WritePart {
    return {
      name: 'grantable_product',
      render: (parameters) =>
        `SELECT product.id FROM products product WHERE product.merchant_id = ${parameters.text(tenant.merchantId)} AND product.mode = ${parameters.text(tenant.mode)}
          AND product.id = ${parameters.text(productId)} AND ${grantableSql('product')} FOR SHARE`,
      refusal,
    };
  }

  /** The tenant's products with any of these ids or store product ids, in one statement. */
  findByIdsOrStoreIds(db: Reader, tenant: Tenant, ids: string[], storeIds: string[]): Promise<ProductEntity[]> {
    if (ids.length === 0 && storeIds.length === 0) return Promise.resolve([]);
    return this.table
      .select(db.manager, tenant)
      .andWhere('(product.id = ANY(:ids) OR product.store_product_id = ANY(:storeIds))', { ids, storeIds })
      .getMany();
  }

  /** The oldest of the tenant's products listing this store variant id. */
  findByStoreVariantId(db: Reader, tenant: Tenant, storeVariantId: string): Promise<ProductEntity | null> {
    return this.table
      .select(db.manager, tenant)
      .andWhere(':storeVariantId = ANY(product.store_variant_ids)', { storeVariantId })
      .orderBy('product.created_at', 'ASC')
      .addOrderBy('product.id', 'ASC')
      .getOne();
  }

  findByIds(db: Reader, tenant: Tenant, productIds: string[]): Promise<ProductEntity[]> {
    if (productIds.length === 0) return Promise.resolve([]);
    return this.table.find(db.manager, tenant, { id: In(productIds) });
  }

  /** Reads and row-locks the product for the rest of the transaction (PATCH, archive, linking a file). */
  lockById(tx: Transaction, tenant: Tenant, productId: string): Promise<ProductEntity | null> {
    return this.table.lockById(tx.manager, tenant, productId);
  }

  /** Reads and row-locks these products in id order (a bundle change locks all it touches). */
  lockByIds(tx: Transaction, tenant: Tenant, productIds: readonly string[]): Promise<ProductEntity[]> {
    return this.table.lockByIds(tx.manager, tenant, productIds);
  }

  /** Inserts; a taken store_product_id fails with the unique violation of products_store_id_key. */
  async insert(tx: Transaction, tenant: Tenant, product: NewProduct): Promise<ProductEntity> {
    // jsonb columns hold Record<string, unknown>, which TypeORM's deep-partial type cannot express.
    await this.table.insert(tx.manager, tenant, product as QueryDeepPartialEntity<ProductEntity>);
    return this.requireInTransaction(tx, tenant, product.id);
  }

  async update(tx: Transaction, tenant: Tenant, productId: string, changes: ProductChanges): Promise<ProductEntity> {
    await this.table.update(tx.manager, tenant, { id: productId }, changes as QueryDeepPartialEntity<ProductEntity>);
    return this.requireInTransaction(tx, tenant, productId);
  }

  /** Marks the product changed (its file links changed): updated_at moves. */
  async touch(tx: Transaction, tenant: Tenant, productId: string): Promise<ProductEntity> {
    await this.table.update(tx.manager, tenant, { id: productId }, { updated_at: () => 'now()' });
    return this.requireInTransaction(tx, tenant, productId);
  }

  /**
   * One keyset page (limit + 1 rows) and the total, newest first. A name search scans the
   * merchant's products of the mode (a catalogue, not a ledger: thousands, not millions).
   */
  async list(db: Reader, tenant: Tenant, filters: ProductFilters, page: PageRequest): Promise<{ rows: ProductEntity[]; total: number }> {
    const base = () => {
      const query = this.table.select(db.manager, tenant);
      const { search } = filters;
      if (search !== undefined) {
        query.andWhere(
          new Brackets((where) =>
            where
              .where('product.id = :search', { search })
              .orWhere('product.store_product_id = :search', { search })
              .orWhere('product.name ILIKE :namePart', { namePart: likeContains(search) }),
          ),
        );
      }
      if (filters.status !== undefined) query.andWhere('product.status = :status', { status: filters.status });
      if (filters.ids !== undefined) query.andWhere('product.id = ANY(:ids)', { ids: filters.ids });
      return query;
    };
    return fetchPageWithTotal(base, 'product', page);
  }

  private async requireInTransaction(tx: Transaction, tenant: Tenant, productId: string): Promise<ProductEntity> {
    const product = await this.findById(tx, tenant, productId);
    if (!product) throw new Error(`Product ${productId} vanished inside its own transaction`);
    return product;
  }

  /** GET /v1/search: the product with this id, or those whose store id starts with the term (by id or by the start of its store id). */
  search(db: Reader, tenant: Tenant, term: string, limit: number): Promise<SearchHit[]> {
    return searchTable(db, tenant, PRODUCT_SEARCH, term, isValidId('prod', term) ? term : null, limit);
  }
}
