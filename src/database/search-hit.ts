import { likePrefix } from './like-pattern';
import type { Tenant } from './tenant';
import { assertTenant } from './tenant-table';
import type { Reader } from './transaction';

/** One record a search found (GET /v1/search), as the table's owner describes it. */
export interface SearchHit {
  id: string;
  /** What a person recognises the record by: a store id, a product's or file's name, an event's type. */
  label: string;
  /** The record's id in the merchant's store, or null (files, events and entitlements have none). */
  storeId: string | null;
  createdAt: Date;
}

/** How an owner's table is searched: its name, its store id column (searched by prefix) or none, and the SQL of a hit's label. */
export interface SearchableTable {
  table: string;
  storeIdColumn: string | null;
  labelSql: string;
}

interface SearchHitRow {
  id: string;
  label: string;
  store_id: string | null;
  created_at: Date;
}

/**
 * The tenant's rows of the table whose id is `id` (null: the term is no id of this table) or whose
 * store id starts with `term` (LIKE with the wildcards escaped: like-pattern.ts), at most `limit`,
 * the id's row first. Each branch is one index range: the primary key, and the table's
 * `(merchant_id, mode, store id text_pattern_ops)` index read in its own order (`USING ~<~`, the
 * operator class's order), so a short prefix matching a million rows still reads only `limit`.
 */
export async function searchTable(db: Reader, tenant: Tenant, searchable: SearchableTable, term: string, id: string | null, limit: number): Promise<SearchHit[]> {
  assertTenant(tenant);
  const { table, storeIdColumn, labelSql } = searchable;
  const columns = `id, ${labelSql} AS label, ${storeIdColumn ?? 'NULL::text'} AS store_id, created_at`;
  // Parameters are numbered as they are added: PostgreSQL refuses a parameter no branch uses.
  const parameters: unknown[] = [tenant.merchantId, tenant.mode, limit];
  const branches: string[] = [];
  if (id !== null) {
    parameters.push(id);
    branches.push(`(SELECT ${columns}, 0 AS rank FROM ${table} WHERE merchant_id = $1 AND mode = $2 AND id = $${parameters.length})`);
  }
  if (storeIdColumn !== null) {
    parameters.push(likePrefix(term));
    branches.push(
      `(SELECT ${columns}, 1 AS rank FROM ${table} WHERE merchant_id = $1 AND mode = $2 AND ${storeIdColumn} LIKE $${parameters.length} ORDER BY ${storeIdColumn} USING ~<~ LIMIT $3)`,
    );
  }
  if (branches.length === 0) return [];
  const rows: SearchHitRow[] = await db.manager.query(`SELECT id, label, store_id, created_at FROM (${branches.join(' UNION ALL ')}) hits ORDER BY rank LIMIT $3`, parameters);
  const seen = new Set<string>();
  return rows
    .filter((row) => !seen.has(row.id) && seen.add(row.id))
    .map((row) => ({ id: row.id, label: row.label, storeId: row.store_id, createdAt: new Date(row.created_at) }));
}
