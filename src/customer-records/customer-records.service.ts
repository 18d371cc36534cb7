import type { SearchHit } from '../database/search-hit';
import { Injectable } from '@nestjs/common';
import type { ReadPart, WritePart } from '../database/combined-statement';
import { LRUCache } from 'lru-cache';
import type { EntityManager } from 'typeorm';
import type { Tenant } from '../database/tenant';
import type { SqlCondition } from '../database/sql-condition';
import type { Reader, Transaction } from '../database/transaction';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { generateId, isValidId } from '../ids/id';
import { CustomerEntity } from './customer.entity';
import { CustomerFilters, CustomersRepository } from './customers.repository';
import type { PageRequest } from '../pagination/page';
import { TestClockTime } from '../test-clock-records/test-clock-time.service';

/** A customer named by our id or by the store's id. */
export type CustomerReference = { id: string; storeId?: undefined } | { id?: undefined; storeId: string };

/**
 * The customers table for other modules: lookups and implicit creation by store id. Each method
 * takes the caller's transaction or reader first, so grants resolve customers in their own
 * transaction.
 */
/** Customers whose store id this instance remembers (a few MB at most). */
const STORE_ID_CACHE_ENTRIES = 50_000;

@Injectable()
export class CustomerRecordsService {
  /**
   * A customer's store id by tenant and id. A customer row is never updated (its store id is its
   * identity in the merchant's store) and ids are never reused (a test clock's customers are
   * deleted with it), so what was read once stays true: the events of a use or a state change name
   * the customer without a read per request.
   */
  private readonly storeIds = new LRUCache<string, string>({ max: STORE_ID_CACHE_ENTRIES });

  constructor(
    private readonly customers: CustomersRepository,
    private readonly testClocks: TestClockTime,
  ) {}

  /** GET /v1/search's customers (search/search.service.ts), read where the caller says (the replica). */
  search(db: Reader, tenant: Tenant, term: string, limit: number): Promise<SearchHit[]> {
    return this.customers.search(db, tenant, term, limit);
  }

  /**
   * The customer a write names, created in `tx` when named by a new store id. `testClockId` (test
   * mode, DESIGN §14) binds a new customer to that clock (404 TEST_CLOCK_NOT_FOUND when the
   * tenant has no such clock); naming it for an existing customer bound elsewhere, or to none, is
   * 409 TEST_CLOCK_MISMATCH.
   */
  async resolveForWrite(tx: Transaction, tenant: Tenant, customer: CustomerReference, testClockId?: string | null): Promise<CustomerEntity> {
    const clockId = testClockId ?? null;
    // The clock is held (key-share) until the write commits: its delete waits, or was first (404).
    if (clockId !== null) await this.testClocks.holdForWrite(tx, tenant, clockId);
    const found = customer.id !== undefined ? await this.require(tx, tenant, customer.id) : await this.customers.upsertByStoreId(tx, tenant, customer.storeId, clockId);
    this.assertBoundTo(found, clockId);
    // A customer bound to a clock the request did not name: that clock (and so the customer) stays too.
    if (found.test_clock_id !== null && clockId === null) await this.testClocks.holdForWrite(tx, tenant, found.test_clock_id);
    return found;
  }

  /** The customer a write names (null when there is none), as a part of the write's combined read; a malformed id matches nothing. */
  findPart(tenant: Tenant, customer: CustomerReference): ReadPart<CustomerEntity | null> {
    const id = customer.id !== undefined && isValidId('cus', customer.id) ? customer.id : null;
    return this.customers.findPart(tenant, id, customer.storeId ?? null);
  }

  /**
   * A new customer named by a store id, bound to no test clock, created at `now` by a combined
   * write (`part`); that write is refused (`refusal`) if the store id was taken meanwhile.
   */
  newCustomerPart(tenant: Tenant, storeCustomerId: string, now: Date, manager: EntityManager, refusal: string): { customer: CustomerEntity; part: WritePart } {
    const customer = manager.create(CustomerEntity, { id: generateId('cus'), merchant_id: tenant.merchantId, mode: tenant.mode, store_customer_id: storeCustomerId, test_clock_id: null, created_at: now });
    return { customer, part: this.customers.insertNewPart(tenant, customer, refusal) };
  }

  /** 409 TEST_CLOCK_MISMATCH when a clock is named and the customer is not bound to it. */
  assertBoundTo(customer: CustomerEntity, testClockId: string | null): void {
    if (testClockId === null || customer.test_clock_id === testClockId) return;
    const bound = customer.test_clock_id === null ? 'is bound to no test clock' : `is bound to test clock '${customer.test_clock_id}'`;
    throw new ApiError(
      ErrorCode.TEST_CLOCK_MISMATCH,
      `Customer '${customer.id}' (store_customer_id '${customer.store_customer_id}') already exists and ${bound}: a customer is bound to a clock when it is created`,
      'test_clock',
    );
  }

  /** The store id of the tenant's customer with this id, or 404 CUSTOMER_NOT_FOUND. */
  async storeIdOf(db: Reader, tenant: Tenant, customerId: string): Promise<string> {
    const key = `${tenant.merchantId}/${tenant.mode}/${customerId}`;
    const known = this.storeIds.get(key);
    if (known !== undefined) return known;
    const { store_customer_id: storeId } = await this.require(db, tenant, customerId);
    this.storeIds.set(key, storeId);
    return storeId;
  }

  /** The customer of this tenant, or 404 CUSTOMER_NOT_FOUND (also for malformed ids and other tenants' ids). */
  async require(db: Reader, tenant: Tenant, customerId: string): Promise<CustomerEntity> {
    const customer = isValidId('cus', customerId) ? await this.customers.findById(db, tenant, customerId) : null;
    if (!customer) throw new ApiError(ErrorCode.CUSTOMER_NOT_FOUND, `No customer with id '${customerId}'`);
    return customer;
  }

  /** The customer with this store id, or 404 CUSTOMER_NOT_FOUND. */
  async requireByStoreId(db: Reader, tenant: Tenant, storeCustomerId: string): Promise<CustomerEntity> {
    const customer = await this.customers.findByStoreId(db, tenant, storeCustomerId);
    if (!customer) throw new ApiError(ErrorCode.CUSTOMER_NOT_FOUND, `No customer with store_customer_id '${storeCustomerId}'`);
    return customer;
  }

  /** The tenant's customer with this id, or null (the caller checked the id's form). */
  findByIdOrNull(db: Reader, tenant: Tenant, customerId: string): Promise<CustomerEntity | null> {
    return this.customers.findById(db, tenant, customerId);
  }

  /** A list's `store_customer_id` filter (a prefix of the store id) on its customer id column: see CustomersRepository. */
  storeIdPrefixCondition(tenant: Tenant, customerIdColumn: string, prefix: string): SqlCondition {
    return this.customers.storeIdPrefixCondition(tenant, customerIdColumn, prefix);
  }

  findByStoreId(db: Reader, tenant: Tenant, storeCustomerId: string): Promise<CustomerEntity | null> {
    return this.customers.findByStoreId(db, tenant, storeCustomerId);
  }

  /** The customers with these store ids, created in `tx` where new (bound to `testClockId`, checked by the caller), by store id (bulk imports). */
  async findOrCreateManyByStoreIds(tx: Transaction, tenant: Tenant, storeCustomerIds: string[], testClockId: string | null = null): Promise<Map<string, CustomerEntity>> {
    const customers = await this.customers.upsertManyByStoreIds(tx, tenant, storeCustomerIds, testClockId);
    return new Map(customers.map((customer) => [customer.store_customer_id, customer]));
  }

  /** One keyset page (limit + 1 rows) of the tenant's customers matching the filters, and their total. */
  list(db: Reader, tenant: Tenant, filters: CustomerFilters, page: PageRequest): Promise<{ rows: CustomerEntity[]; total: number }> {
    return this.customers.list(db, tenant, filters, page);
  }

  /** These customers of the tenant by id (unknown ids left out): responses name each one's store id and test clock. */
  async byIds(db: Reader, tenant: Tenant, customerIds: string[]): Promise<Map<string, CustomerEntity>> {
    return new Map((await this.findByIds(db, tenant, customerIds)).map((customer) => [customer.id, customer]));
  }

  /** These customers of the tenant (unknown ids left out). */
  findByIds(db: Reader, tenant: Tenant, customerIds: string[]): Promise<CustomerEntity[]> {
    return this.customers.findByIds(db, tenant, [...new Set(customerIds)]);
  }

  /** store_customer_id of each of these customers of the tenant. */
  async storeIdsOf(db: Reader, tenant: Tenant, customerIds: string[]): Promise<Map<string, string>> {
    const customers = await this.customers.findByIds(db, tenant, [...new Set(customerIds)]);
    return new Map(customers.map((customer) => [customer.id, customer.store_customer_id]));
  }
}
