import type { SqlCondition } from '../database/sql-condition';
import { searchTable, type SearchableTable, type SearchHit } from '../database/search-hit';
import { isValidId } from '../ids/id';
import { Injectable } from '@nestjs/common';
import { EntityManager, In, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { entityFromJson, ReadPart, runAlone, WritePart } from '../database/combined-statement';
import type { ApiMode, Tenant } from '../database/tenant';
import { ReadPool } from '../database/read-pool';
import { assertTenant, INSERT_CHUNK_ROWS, TenantTable, WithoutTenant } from '../database/tenant-table';
import type { Reader, Transaction } from '../database/transaction';
import { applyKeysetPage, fetchPageWithTotal } from '../pagination/keyset';
import { PageRequest } from '../pagination/page';
import { customerNowSql } from '../test-clock-records/test-clock-time.sql';
import { dueSql, effectiveStatusSql, runOutSql } from './effective-status';
import { buildCheckQuery, Reference } from './entitlement-check.query';
import { EntitlementEntity, EntitlementSource, EntitlementStatus } from './entitlement.entity';

export interface CheckRow {
  id: string;
  product_id: string;
  granted_at: Date;
  expires_at: Date | null;
  metadata: Record<string, unknown>;
  source: EntitlementSource;
}

export interface EntitlementFilters {
  /** Every customer id given must match (customer_id, and the id store_customer_id resolved to). */
  customerIds?: string[];
  /** The customer's store id starts with… (the customer-records owner's condition). */
  customerCondition?: SqlCondition;
  productId?: string;
  status?: EntitlementStatus;
  source?: EntitlementSource;
  grantedAfter?: Date;
  grantedBefore?: Date;
}

/** The columns an operation may change; identity, tenant, customer, product and source never change. */
export type EntitlementState = Pick<
  EntitlementEntity,
  | 'status'
  | 'expires_at'
  | 'revoked_at'
  | 'revocation_reason'
  | 'suspended_at'
  | 'suspension_reason'
  | 'usage_count'
  | 'usage_limit'
  | 'metadata'
>;

export type NewEntitlement = WithoutTenant<Omit<EntitlementEntity, 'merchant' | 'customer' | 'product' | 'created_at' | 'updated_at' | 'uses_ran_out'>>;

/** A new entitlement with every column its INSERT writes (created_at and updated_at included). */
export type StoredNewEntitlement = NewEntitlement & Pick<EntitlementEntity, 'created_at' | 'updated_at'>;

/** The entity of a row as written by insertMany or insertPart, in the tenant. */
export function entitlementOfRow(manager: EntityManager, tenant: Tenant, row: StoredNewEntitlement): EntitlementEntity {
  // Assigned, not merged (manager.create would merge metadata key by key and drop an own `__proto__`).
  return Object.assign(manager.create(EntitlementEntity), row, { merchant_id: tenant.merchantId, mode: tenant.mode });
}

interface CheckSqlRow {
  id: string;
  product_id: string;
  granted_at: Date | string;
  expires_at: Date | string | null;
  metadata: Record<string, unknown>;
  source: EntitlementSource;
}

/** "Now" of an entitlement row: its customer's test clock's frozen time, else the bound real time (DESIGN §14). */
const rowNowSql = (alias: string, nowParameter: string): string => customerNowSql(`${alias}.test_clock_id`, nowParameter);

// The real-time sweep never touches a test clock's entitlements: their time moves only when the clock advances.
// dueSql reads the stored uses_ran_out, so the two sweep indexes (expires_at, uses_ran_out) serve it.
export const SWEEP_SQL = `SELECT id, merchant_id, mode FROM entitlements e
  WHERE e.status = 'active' AND e.test_clock_id IS NULL AND ${dueSql('e', '$1')}
  ORDER BY id
  LIMIT $2
  FOR UPDATE SKIP LOCKED`;

// A test clock's due entitlements at its new frozen time. Waits for rows an operation holds
// (no SKIP LOCKED): the advance answers only once everything due is applied.
const CLOCK_SWEEP_SQL = `SELECT id, merchant_id, mode FROM entitlements e
  WHERE e.merchant_id = $1 AND e.mode = $2 AND e.test_clock_id = $3 AND e.status = 'active' AND ${dueSql('e', '$4')}
  ORDER BY id
  LIMIT $5
  FOR UPDATE`;

/** An entitlement the sweeper holds, with its tenant. */
export interface DueEntitlement {
  id: string;
  merchant_id: string;
  mode: ApiMode;
}

// A CTE, so the driver returns the rows (a bare UPDATE … RETURNING comes back as [rows, count]).
const ENTITLEMENT_SEARCH: SearchableTable = { table: 'entitlements', storeIdColumn: null, labelSql: 'id' };

@Injectable()
export class EntitlementsRepository {
  private readonly table = new TenantTable(EntitlementEntity, 'entitlement');

  constructor(private readonly readPool: ReadPool) {}

  /** The hot path: one indexed statement (see entitlement-check.query.ts). */
  async check(tenant: Tenant, customer: Reference, product: Reference, now: Date): Promise<CheckRow | null> {
    const { name, sql, parameters } = buildCheckQuery(tenant, customer, product, now);
    // Straight to a pool as a named statement: planning cost several times the execution, and
    // TypeORM's query runner (which can't name statements) adds its own overhead on every call.
    // The check's own pool: it never queues behind write transactions for a connection.
    // Unnamed when DATABASE_PREPARED_STATEMENTS=false: a transaction pooler may run it on a connection that never saw it.
    const result = await this.readPool.pool.query<CheckSqlRow>({ name: this.readPool.statementName(name), text: sql, values: parameters });
    const row = result.rows[0];
    if (!row) return null;
    return {
      id: row.id,
      product_id: row.product_id,
      granted_at: new Date(row.granted_at),
      expires_at: row.expires_at === null ? null : new Date(row.expires_at),
      metadata: row.metadata,
      source: row.source,
    };
  }

  findById(db: Reader, tenant: Tenant, entitlementId: string): Promise<EntitlementEntity | null> {
    return this.table.findOne(db.manager, tenant, { id: entitlementId });
  }

  findByIds(db: Reader, tenant: Tenant, entitlementIds: string[]): Promise<EntitlementEntity[]> {
    if (entitlementIds.length === 0) return Promise.resolve([]);
    return this.table.find(db.manager, tenant, { id: In(entitlementIds) });
  }

  /**
   * Locks the row (SELECT … FOR UPDATE) in the transaction, so concurrent operations on one
   * entitlement run one after the other and each sees the previous one's result.
   */
  lockById(tx: Transaction, tenant: Tenant, entitlementId: string): Promise<EntitlementEntity | null> {
    return this.table.lockById(tx.manager, tenant, entitlementId);
  }

  /**
   * The entitlement with its row version (xmin: it changes with every write of the row) and its
   * customer's now (the test clock's frozen time when bound to one, else `now`: DESIGN §14), as a
   * part of a combined read; null when the tenant has none.
   */
  versionedPart(tenant: Tenant, entitlementId: string, now: Date): ReadPart<{ entitlement: EntitlementEntity; version: string; customerNow: Date } | null> {
    return {
      render: (parameters) =>
        `SELECT jsonb_build_object('row', to_jsonb(e), 'version', e.xmin::text, 'now', ${rowNowSql('e', parameters.timestamptz(now))})
          FROM entitlements e WHERE e.merchant_id = ${parameters.text(tenant.merchantId)} AND e.mode = ${parameters.text(tenant.mode)} AND e.id = ${parameters.text(entitlementId)}`,
      parse: (value, manager) => {
        if (value === null || value === undefined) return null;
        const { row, version, now: customerNow } = value as { row: Record<string, unknown>; version: string; now: string };
        return { entitlement: entityFromJson(manager, EntitlementEntity, row), version, customerNow: new Date(customerNow) };
      },
    };
  }

  /**
   * One use as a part of a combined write, taken only if the row is still the version that was
   * read (so what was checked and published from that read is still true); refused otherwise.
   */
  useOncePart(tenant: Tenant, entitlementId: string, version: string, updatedAt: Date, refusal: string): WritePart {
    return {
      name: 'entitlement_use',
      render: (parameters) =>
        `UPDATE entitlements SET usage_count = usage_count + 1, updated_at = ${parameters.timestamptz(updatedAt)}
          WHERE merchant_id = ${parameters.text(tenant.merchantId)} AND mode = ${parameters.text(tenant.mode)} AND id = ${parameters.text(entitlementId)}
            AND xmin = ${parameters.xid(version)} RETURNING id`,
      refusal,
    };
  }

  /** A bundle parent's children, locked in id order (the order every cascade takes them in, so two never deadlock). */
  lockChildren(tx: Transaction, tenant: Tenant, parentEntitlementId: string): Promise<EntitlementEntity[]> {
    return this.table
      .select(tx.manager, tenant)
      .andWhere('entitlement.parent_entitlement_id = :parentEntitlementId', { parentEntitlementId })
      .orderBy('entitlement.id', 'ASC')
      .setLock('pessimistic_write')
      .getMany();
  }

  /**
   * Inserts in order, in multi-row statements: the same INSERT as `insertPart`, run alone. Returns
   * the entities as written (every column given by the row, so nothing is left to the database).
   */
  async insertMany(tx: Transaction, tenant: Tenant, rows: StoredNewEntitlement[]): Promise<EntitlementEntity[]> {
    for (let start = 0; start < rows.length; start += INSERT_CHUNK_ROWS) {
      await runAlone(tx.manager, this.table.insertRowsPart(tx.manager, tenant, rows.slice(start, start + INSERT_CHUNK_ROWS), 'new_entitlements'));
    }
    return rows.map((row) => entitlementOfRow(tx.manager, tenant, row));
  }

  /**
   * New entitlements as a part of a combined write: the INSERT `insertMany` runs, every column
   * given, so the response and the event built from `entitlementOfRow` are what the row holds.
   */
  insertPart(manager: EntityManager, tenant: Tenant, rows: StoredNewEntitlement[]): WritePart {
    return this.table.insertRowsPart(manager, tenant, rows, 'new_entitlements');
  }

  /**
   * Writes the entitlement's changeable columns and `updatedAt` (the real time of the change, as a
   * use in a combined write sets it); returns it as stored.
   */
  async saveState(tx: Transaction, tenant: Tenant, entitlementId: string, state: EntitlementState, updatedAt: Date): Promise<EntitlementEntity> {
    const changes = { ...state, updated_at: updatedAt };
    const saved = await this.table.updateById(tx.manager, tenant, entitlementId, changes as QueryDeepPartialEntity<EntitlementEntity>);
    if (!saved) throw new Error(`Entitlement ${entitlementId} vanished inside its own transaction`);
    return saved;
  }

  /** One keyset page (limit + 1 rows) and the total; `status` filters on the effective status at `now`. */
  async list(db: Reader, tenant: Tenant, filters: EntitlementFilters, page: PageRequest, now: Date): Promise<{ rows: EntitlementEntity[]; total: number }> {
    const base = () => {
      const query = this.table.select(db.manager, tenant);
      for (const [index, customerId] of (filters.customerIds ?? []).entries()) {
        query.andWhere(`entitlement.customer_id = :customerId${index}`, { [`customerId${index}`]: customerId });
      }
      if (filters.customerCondition) query.andWhere(filters.customerCondition.sql, filters.customerCondition.parameters);
      if (filters.productId !== undefined) query.andWhere('entitlement.product_id = :productId', { productId: filters.productId });
      if (filters.status !== undefined) {
        query.andWhere(`${effectiveStatusSql('entitlement', rowNowSql('entitlement', ':now'))} = :status`, { status: filters.status, now: now.toISOString() });
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
    return fetchPageWithTotal(base, 'entitlement', page);
  }

  /** The (customer, product) pairs among these that hold an entitlement active at `now`, as `customer/product`. */
  async activePairs(db: Reader, tenant: Tenant, customerIds: string[], productIds: string[], now: Date): Promise<Set<string>> {
    if (customerIds.length === 0 || productIds.length === 0) return new Set();
    const rows = await this.table
      .select(db.manager, tenant)
      .select(['entitlement.customer_id', 'entitlement.product_id'])
      .andWhere('entitlement.customer_id IN (:...customerIds)', { customerIds: [...new Set(customerIds)] })
      .andWhere('entitlement.product_id IN (:...productIds)', { productIds: [...new Set(productIds)] })
      .andWhere(`entitlement.status = 'active'`)
      .andWhere(`NOT ${runOutSql('entitlement', rowNowSql('entitlement', ':now'))}`, { now })
      .getMany();
    return new Set(rows.map((row) => `${row.customer_id}/${row.product_id}`));
  }

  /** Distinct products of the customer's entitlements that are active at `now` (status, expiry and usage). */
  async activeProductIds(db: Reader, tenant: Tenant, customerId: string, now: Date): Promise<string[]> {
    const rows = await this.activeOf(db, tenant, customerId, now)
      .select('DISTINCT entitlement.product_id', 'product_id')
      .getRawMany<{ product_id: string }>();
    return rows.map((row) => row.product_id);
  }

  /** A keyset page (limit + 1) of the customer's entitlements active at `now` for these products. */
  pageActive(db: Reader, tenant: Tenant, customerId: string, productIds: string[], now: Date, page: PageRequest): Promise<EntitlementEntity[]> {
    if (productIds.length === 0) return Promise.resolve([]);
    const query = this.activeOf(db, tenant, customerId, now).andWhere('entitlement.product_id IN (:...productIds)', { productIds });
    return applyKeysetPage(query, 'entitlement', page).getMany();
  }

  /**
   * The expiry sweep's batch, across every tenant (maintenance, the one tenant-free statement
   * here): locks up to `limit` active entitlements run out at `now`, skipping rows another
   * transaction holds (that operation records the expiry itself). The sweeper expires each through
   * the lifecycle, so a swept expiry and any other take the same path.
   */
  lockDueAcrossTenants(tx: Transaction, now: Date, limit: number): Promise<DueEntitlement[]> {
    return tx.manager.query(SWEEP_SQL, [now.toISOString(), limit]);
  }

  /** The same batch for one test clock's entitlements at its frozen time `now` (its advance, DESIGN §14). */
  lockDueForTestClock(tx: Transaction, tenant: Tenant, testClockId: string, now: Date, limit: number): Promise<DueEntitlement[]> {
    assertTenant(tenant);
    return tx.manager.query(CLOCK_SWEEP_SQL, [tenant.merchantId, tenant.mode, testClockId, now.toISOString(), limit]);
  }

  private activeOf(db: Reader, tenant: Tenant, customerId: string, now: Date): SelectQueryBuilder<EntitlementEntity> {
    return this.table
      .select(db.manager, tenant)
      .andWhere('entitlement.customer_id = :customerId', { customerId })
      .andWhere(`entitlement.status = 'active'`)
      .andWhere(`NOT ${runOutSql('entitlement', rowNowSql('entitlement', ':now'))}`, { now });
  }

  /** GET /v1/search: the entitlement with this id, or those whose store id starts with the term (by id only (it has no store id)). */
  search(db: Reader, tenant: Tenant, term: string, limit: number): Promise<SearchHit[]> {
    return searchTable(db, tenant, ENTITLEMENT_SEARCH, term, isValidId('ent', term) ? term : null, limit);
  }
}
