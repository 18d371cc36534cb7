import { Injectable } from '@nestjs/common';
import { In, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { entityFromJson, ReadPart, WritePart } from '../database/combined-statement';
import type { ApiMode, Tenant } from '../database/tenant';
import { ReadPool } from '../database/read-pool';
import { assertTenant, TenantTable, WithoutTenant } from '../database/tenant-table';
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
    const result = await this.readPool.pool.query<CheckSqlRow>({ name, text: sql, values: parameters });
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
      sql: `SELECT jsonb_build_object('row', to_jsonb(e), 'version', e.xmin::text, 'now', ${rowNowSql('e', '$4::timestamptz')})
        FROM entitlements e WHERE e.merchant_id = $1 AND e.mode = $2 AND e.id = $3`,
      parameters: [tenant.merchantId, tenant.mode, entitlementId, now.toISOString()],
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
      sql: `UPDATE entitlements SET usage_count = usage_count + 1, updated_at = $5
        WHERE merchant_id = $1 AND mode = $2 AND id = $3 AND xmin = $4::text::xid RETURNING id`,
      parameters: [tenant.merchantId, tenant.mode, entitlementId, version, updatedAt],
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

  /** Inserts in order, in multi-row statements. */
  insertMany(tx: Transaction, tenant: Tenant, entitlements: NewEntitlement[]): Promise<EntitlementEntity[]> {
    return this.table.insertMany(tx.manager, tenant, entitlements as QueryDeepPartialEntity<EntitlementEntity>[]);
  }

  /**
   * A new entitlement as a part of a combined write, every column given (created_at and updated_at
   * too), so the response and the event built from `entitlement` are what the row holds.
   */
  insertPart(tenant: Tenant, entitlement: NewEntitlement & Pick<EntitlementEntity, 'created_at' | 'updated_at'>): WritePart {
    assertTenant(tenant);
    const columns: Array<[string, unknown]> = [
      ['id', entitlement.id],
      ['merchant_id', tenant.merchantId],
      ['mode', tenant.mode],
      ['customer_id', entitlement.customer_id],
      ['test_clock_id', entitlement.test_clock_id],
      ['product_id', entitlement.product_id],
      ['status', entitlement.status],
      ['granted_at', entitlement.granted_at],
      ['expires_at', entitlement.expires_at],
      ['revoked_at', entitlement.revoked_at],
      ['revocation_reason', entitlement.revocation_reason],
      ['suspended_at', entitlement.suspended_at],
      ['suspension_reason', entitlement.suspension_reason],
      ['usage_count', entitlement.usage_count],
      ['usage_limit', entitlement.usage_limit],
      ['source', entitlement.source],
      ['store_order_id', entitlement.store_order_id],
      ['store_line_item_id', entitlement.store_line_item_id],
      ['parent_entitlement_id', entitlement.parent_entitlement_id],
      ['metadata', JSON.stringify(entitlement.metadata)],
      ['created_at', entitlement.created_at],
      ['updated_at', entitlement.updated_at],
    ];
    return {
      name: 'new_entitlement',
      sql: `INSERT INTO entitlements (${columns.map(([name]) => name).join(', ')}) VALUES (${columns.map(([name], index) => (name === 'metadata' ? `$${index + 1}::jsonb` : `$${index + 1}`)).join(', ')})`,
      parameters: columns.map(([, value]) => value),
    };
  }

  /** Writes the entitlement's changeable columns; returns it as stored (updated_at moved). */
  async saveState(tx: Transaction, tenant: Tenant, entitlementId: string, state: EntitlementState): Promise<EntitlementEntity> {
    const saved = await this.table.updateById(tx.manager, tenant, entitlementId, state as QueryDeepPartialEntity<EntitlementEntity>);
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
}
