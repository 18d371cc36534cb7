import { searchTable, type SearchableTable, type SearchHit } from '../database/search-hit';
import { Injectable } from '@nestjs/common';
import { Brackets, In } from 'typeorm';
import { entityFromJson, ReadPart, WritePart } from '../database/combined-statement';
import type { Tenant } from '../database/tenant';
import { likePrefix } from '../database/like-pattern';
import type { SqlCondition } from '../database/sql-condition';
import { assertTenant, TenantTable } from '../database/tenant-table';
import type { Reader, Transaction } from '../database/transaction';
import { generateId, isValidId } from '../ids/id';
import { fetchPageWithTotal } from '../pagination/keyset';
import type { PageRequest } from '../pagination/page';
import { CustomerEntity } from './customer.entity';

export interface CustomerFilters {
  /** An exact customer id, or the start of a store customer id. */
  search?: string;
  createdAfter?: Date;
  createdBefore?: Date;
}

const CUSTOMER_SEARCH: SearchableTable = { table: 'customers', storeIdColumn: 'store_customer_id', labelSql: 'store_customer_id' };

@Injectable()
export class CustomersRepository {
  private readonly table = new TenantTable(CustomerEntity, 'customer');

  findById(db: Reader, tenant: Tenant, customerId: string): Promise<CustomerEntity | null> {
    return this.table.findOne(db.manager, tenant, { id: customerId });
  }

  /** The customer with this id or this store id (the other null), as a part of a combined read. */
  findPart(tenant: Tenant, id: string | null, storeId: string | null): ReadPart<CustomerEntity | null> {
    return {
      render: (parameters) =>
        `SELECT to_jsonb(customer) FROM customers customer WHERE customer.merchant_id = ${parameters.text(tenant.merchantId)} AND customer.mode = ${parameters.text(tenant.mode)}
          AND (customer.id = ${parameters.text(id)} OR customer.store_customer_id = ${parameters.text(storeId)})`,
      parse: (value, manager) => (value !== null && typeof value === 'object' ? entityFromJson(manager, CustomerEntity, value as Record<string, unknown>) : null),
    };
  }

  /**
   * A new customer (bound to no test clock) as a part of a combined write, refused (`refusal`)
   * when the store id was taken meanwhile: then the caller's transaction finds it.
   */
  insertNewPart(tenant: Tenant, customer: Pick<CustomerEntity, 'id' | 'store_customer_id' | 'created_at'>, refusal: string): WritePart {
    assertTenant(tenant);
    return {
      name: 'new_customer',
      render: (parameters) =>
        `INSERT INTO customers (id, merchant_id, mode, store_customer_id, test_clock_id, created_at)
          VALUES (${parameters.text(customer.id)}, ${parameters.text(tenant.merchantId)}, ${parameters.text(tenant.mode)}, ${parameters.text(customer.store_customer_id)}, NULL, ${parameters.timestamptz(customer.created_at)})
          ON CONFLICT (merchant_id, mode, store_customer_id) DO NOTHING RETURNING id`,
      refusal,
    };
  }

  /**
   * The store-id filter of every list (`store_customer_id` on entitlements, orders,
   * subscriptions): `customerIdColumn` holds the id of a customer of the tenant whose store id
   * starts with `prefix` (like-pattern.ts: wildcards escaped; an exact store id is its own prefix).
   * A subquery served by customers_store_id_prefix_idx, so a prefix needs no read of its own.
   */
  storeIdPrefixCondition(tenant: Tenant, customerIdColumn: string, prefix: string): SqlCondition {
    assertTenant(tenant);
    return {
      sql:
        `${customerIdColumn} IN (SELECT prefixed_customer.id FROM customers prefixed_customer WHERE prefixed_customer.merchant_id = :prefixedCustomerMerchantId ` +
        'AND prefixed_customer.mode = :prefixedCustomerMode AND prefixed_customer.store_customer_id LIKE :storeCustomerIdPrefix)',
      parameters: { prefixedCustomerMerchantId: tenant.merchantId, prefixedCustomerMode: tenant.mode, storeCustomerIdPrefix: likePrefix(prefix) },
    };
  }

  findByStoreId(db: Reader, tenant: Tenant, storeCustomerId: string): Promise<CustomerEntity | null> {
    return this.table.findOne(db.manager, tenant, { store_customer_id: storeCustomerId });
  }

  findByIds(db: Reader, tenant: Tenant, customerIds: string[]): Promise<CustomerEntity[]> {
    if (customerIds.length === 0) return Promise.resolve([]);
    return this.table.find(db.manager, tenant, { id: In(customerIds) });
  }

  /** One keyset page (limit + 1 rows) of the tenant's customers matching the filters, and their total. */
  list(db: Reader, tenant: Tenant, filters: CustomerFilters, page: PageRequest): Promise<{ rows: CustomerEntity[]; total: number }> {
    const base = () => {
      const query = this.table.select(db.manager, tenant);
      const { search } = filters;
      if (search !== undefined) {
        // The store id's prefix is served by customers_store_id_prefix_idx (text_pattern_ops).
        query.andWhere(
          new Brackets((where) =>
            where.where('customer.id = :search', { search }).orWhere('customer.store_customer_id LIKE :storeIdPrefix', { storeIdPrefix: likePrefix(search) }),
          ),
        );
      }
      if (filters.createdAfter) query.andWhere('customer.created_at > :createdAfter', { createdAfter: filters.createdAfter });
      if (filters.createdBefore) query.andWhere('customer.created_at < :createdBefore', { createdBefore: filters.createdBefore });
      return query;
    };
    return fetchPageWithTotal(base, 'customer', page);
  }

  /**
   * The customer with this store id, created if new. One statement, race-free: a concurrent
   * insert of the same store id waits on the unique index and then returns the existing row.
   */
  async upsertByStoreId(tx: Transaction, tenant: Tenant, storeCustomerId: string, testClockId: string | null = null): Promise<CustomerEntity> {
    assertTenant(tenant);
    // RETURNING the whole row: no second read (every grant by store id comes through here).
    const rows: CustomerEntity[] = await tx.manager.query(
      `INSERT INTO customers (id, merchant_id, mode, store_customer_id, test_clock_id)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (merchant_id, mode, store_customer_id) DO UPDATE SET store_customer_id = EXCLUDED.store_customer_id
       RETURNING id, merchant_id, mode, store_customer_id, test_clock_id, created_at`,
      [generateId('cus'), tenant.merchantId, tenant.mode, storeCustomerId, testClockId],
    );
    return tx.manager.create(CustomerEntity, rows[0]);
  }

  /**
   * The customers with these store ids, created where new, in two statements whatever their number
   * (bulk imports). Store ids are inserted in sorted order, so two batches never wait on each other
   * in opposite orders.
   */
  async upsertManyByStoreIds(tx: Transaction, tenant: Tenant, storeCustomerIds: string[], testClockId: string | null = null): Promise<CustomerEntity[]> {
    assertTenant(tenant);
    const storeIds = [...new Set(storeCustomerIds)].sort();
    if (storeIds.length === 0) return [];
    await tx.manager.query(
      `INSERT INTO customers (id, merchant_id, mode, store_customer_id, test_clock_id)
       SELECT id, $1, $2, store_customer_id, $5 FROM unnest($3::text[], $4::text[]) AS incoming(id, store_customer_id)
       ON CONFLICT (merchant_id, mode, store_customer_id) DO NOTHING`,
      [tenant.merchantId, tenant.mode, storeIds.map(() => generateId('cus')), storeIds, testClockId],
    );
    return this.table.find(tx.manager, tenant, { store_customer_id: In(storeIds) });
  }

  /** GET /v1/search: the customer with this id, or those whose store id starts with the term (by id or by the start of its store id). */
  search(db: Reader, tenant: Tenant, term: string, limit: number): Promise<SearchHit[]> {
    return searchTable(db, tenant, CUSTOMER_SEARCH, term, isValidId('cus', term) ? term : null, limit);
  }
}
