import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import type { Pool } from 'pg';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { Tenant } from '../auth/tenant';
import { CustomerEntity } from '../customers/customer.entity';
import { applyKeysetPage } from '../pagination/keyset';
import { PageRequest } from '../pagination/page';
import { effectiveStatusSql } from './effective-status';
import { buildCheckQuery, Reference } from './entitlement-check.query';
import { EntitlementEntity, EntitlementSource, EntitlementStatus } from './entitlement.entity';
import type { EntitlementWithCustomer } from './entitlement.mapper';
import { ProductEntity } from '../products/product.entity';

export interface CheckRow {
  id: string;
  product_id: string;
  granted_at: Date;
  expires_at: Date | null;
  metadata: Record<string, unknown>;
}

export interface EntitlementFilters {
  customerId?: string;
  storeCustomerId?: string;
  productId?: string;
  status?: EntitlementStatus;
  source?: EntitlementSource;
  grantedAfter?: Date;
  grantedBefore?: Date;
}

interface CheckSqlRow {
  id: string;
  product_id: string;
  granted_at: Date | string;
  expires_at: Date | string | null;
  metadata: Record<string, unknown>;
}

@Injectable()
export class EntitlementsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The hot path: one indexed statement (see entitlement-check.query.ts). */
  async check(tenant: Tenant, customer: Reference, product: Reference, now: Date): Promise<CheckRow | null> {
    const { name, sql, parameters } = buildCheckQuery(tenant, customer, product, now);
    // Straight to the pool as a named statement: planning cost several times the execution, and
    // TypeORM's query runner (which can't name statements) adds its own overhead on every call.
    const pool = (this.dataSource.driver as PostgresDriver).master as Pool;
    const result = await pool.query<CheckSqlRow>({ name, text: sql, values: parameters });
    const row = result.rows[0];
    if (!row) return null;
    return {
      id: row.id,
      product_id: row.product_id,
      granted_at: new Date(row.granted_at),
      expires_at: row.expires_at === null ? null : new Date(row.expires_at),
      metadata: row.metadata,
    };
  }

  findById(tenant: Tenant, entitlementId: string): Promise<EntitlementWithCustomer | null> {
    return this.withCustomer(this.dataSource.manager)
      .where('entitlement.id = :entitlementId AND entitlement.merchant_id = :merchantId AND entitlement.mode = :mode', {
        entitlementId,
        merchantId: tenant.merchantId,
        mode: tenant.mode,
      })
      .getOne() as Promise<EntitlementWithCustomer | null>;
  }

  /**
   * Locks the row (SELECT … FOR UPDATE) in `manager`'s transaction, so concurrent operations on one
   * entitlement run one after the other and each sees the previous one's result.
   */
  async lockById(manager: EntityManager, tenant: Tenant, entitlementId: string): Promise<EntitlementWithCustomer | null> {
    const entitlement = await manager
      .createQueryBuilder(EntitlementEntity, 'entitlement')
      .setLock('pessimistic_write')
      .where('entitlement.id = :entitlementId AND entitlement.merchant_id = :merchantId AND entitlement.mode = :mode', {
        entitlementId,
        merchantId: tenant.merchantId,
        mode: tenant.mode,
      })
      .getOne();
    if (!entitlement) return null;
    return this.attachCustomer(manager, entitlement);
  }

  async attachCustomer(manager: EntityManager, entitlement: EntitlementEntity): Promise<EntitlementWithCustomer> {
    const customer = await manager.findOneOrFail(CustomerEntity, {
      where: { id: entitlement.customer_id, merchant_id: entitlement.merchant_id, mode: entitlement.mode },
    });
    entitlement.customer = customer;
    return entitlement as EntitlementWithCustomer;
  }

  /** The product a grant names, by id or store id, read in the grant's transaction. */
  findProduct(manager: EntityManager, tenant: Tenant, product: Reference): Promise<ProductEntity | null> {
    const where = product.id !== undefined ? { id: product.id } : { store_product_id: product.storeId };
    return manager.findOne(ProductEntity, { where: { ...where, merchant_id: tenant.merchantId, mode: tenant.mode } });
  }

  insert(manager: EntityManager, entitlement: EntitlementEntity): Promise<EntitlementEntity> {
    return manager.save(EntitlementEntity, entitlement);
  }

  save(manager: EntityManager, entitlement: EntitlementEntity): Promise<EntitlementEntity> {
    return manager.save(EntitlementEntity, entitlement);
  }

  /** One keyset page (limit + 1 rows) and the total; `status` filters on the effective status at `now`. */
  async list(
    tenant: Tenant,
    filters: EntitlementFilters,
    page: PageRequest,
    now: Date,
  ): Promise<{ rows: EntitlementWithCustomer[]; total: number }> {
    // The count joins customers only when a filter needs it and counts rows, not DISTINCT ids:
    // TypeORM's getCount() over the joined page query cost ~250 ms for a 100k-entitlement customer.
    const base = (forPage: boolean) => {
      const manager = this.dataSource.manager;
      const from = forPage
        ? this.withCustomer(manager)
        : filters.storeCustomerId !== undefined
          ? manager.createQueryBuilder(EntitlementEntity, 'entitlement').innerJoin('entitlement.customer', 'customer')
          : manager.createQueryBuilder(EntitlementEntity, 'entitlement');
      const query = from.where(
        'entitlement.merchant_id = :merchantId AND entitlement.mode = :mode',
        { merchantId: tenant.merchantId, mode: tenant.mode },
      );
      if (filters.customerId !== undefined) query.andWhere('entitlement.customer_id = :customerId', { customerId: filters.customerId });
      if (filters.storeCustomerId !== undefined) {
        query.andWhere('customer.store_customer_id = :storeCustomerId', { storeCustomerId: filters.storeCustomerId });
      }
      if (filters.productId !== undefined) query.andWhere('entitlement.product_id = :productId', { productId: filters.productId });
      if (filters.status !== undefined) {
        query.andWhere(`${effectiveStatusSql('entitlement', ':now')} = :status`, { status: filters.status, now: now.toISOString() });
      }
      if (filters.source !== undefined) query.andWhere('entitlement.source = :source', { source: filters.source });
      if (filters.grantedAfter !== undefined) {
        query.andWhere('entitlement.granted_at >= :grantedAfter', { grantedAfter: filters.grantedAfter.toISOString() });
      }
      if (filters.grantedBefore !== undefined) {
        query.andWhere('entitlement.granted_at < :grantedBefore', { grantedBefore: filters.grantedBefore.toISOString() });
      }
      return query;
    };
    const [rows, count] = await Promise.all([
      applyKeysetPage(base(true), 'entitlement', page).getMany(),
      base(false).select('COUNT(*)', 'total').getRawOne<{ total: string }>(),
    ]);
    return { rows: rows as EntitlementWithCustomer[], total: Number(count?.total ?? 0) };
  }

  private withCustomer(manager: EntityManager): SelectQueryBuilder<EntitlementEntity> {
    return manager.createQueryBuilder(EntitlementEntity, 'entitlement').innerJoinAndSelect('entitlement.customer', 'customer');
  }
}
