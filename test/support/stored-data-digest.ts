import { DataSource } from 'typeorm';

/**
 * Columns that change on reads by design and so are left out of the digest: last_used_at is
 * written (at most once a minute) by any authenticated request.
 */
const VOLATILE_COLUMNS = ['last_used_at'];

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * A digest of everything stored for one merchant: every table with a merchant_id column
 * (found through information_schema, so tables added later are included; partitions through
 * their table), plus the merchant's
 * own row and the number of merchants (the admin API creates merchants).
 */
export class StoredDataDigest {
  private query: string | null = null;

  constructor(private readonly dataSource: DataSource) {}

  async tables(): Promise<string[]> {
    const rows: Array<{ table_name: string }> = await this.dataSource.query(
      `SELECT table_name FROM information_schema.columns
        WHERE column_name = 'merchant_id' AND table_schema = current_schema()
          -- A partitioned table's rows are read through it, not once more through each partition.
          AND table_name NOT IN (SELECT relname FROM pg_class WHERE relispartition)
        ORDER BY table_name`,
    );
    return rows.map((row) => row.table_name);
  }

  /** One round trip: per-table digests, so a difference names the table that changed. */
  async of(merchantId: string): Promise<Record<string, string>> {
    if (this.query === null) {
      const volatile = VOLATILE_COLUMNS.map((column) => ` - '${column}'`).join('');
      const parts = (await this.tables()).map(
        (table) =>
          `SELECT '${table}' AS name, coalesce(md5(string_agg(row_text, ',' ORDER BY row_text)), 'empty') AS digest
             FROM (SELECT (to_jsonb(t)${volatile})::text AS row_text FROM ${quoteIdentifier(table)} t WHERE t.merchant_id = $1) rows_of_table`,
      );
      parts.push(
        `SELECT 'merchants(own row)' AS name, coalesce(md5(string_agg(to_jsonb(m)::text, ',')), 'empty') AS digest FROM merchants m WHERE m.id = $1`,
        `SELECT 'merchants(count)' AS name, count(*)::text AS digest FROM merchants`,
      );
      this.query = parts.join('\nUNION ALL\n');
    }
    const rows: Array<{ name: string; digest: string }> = await this.dataSource.query(this.query, [merchantId]);
    return Object.fromEntries(rows.map((row) => [row.name, row.digest]));
  }
}

/** The names whose digest differs, for a failure message. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => before[name] !== after[name]).sort();
}
