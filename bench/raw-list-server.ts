import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import { Pool } from 'pg';
import { decodeCursor, encodeCursor, useCursorSecret } from '../src/pagination/cursor';

/**
 * The limit of this machine for a list page (issue 36, item 4), as raw-check-server.ts is the
 * check's: a bare `node:http` server answering `GET /v1/entitlements?customer_id=…&limit=…[&cursor=…]`
 * with the statements the service sends for that list (a keyset page of limit + 1 rows, newest
 * first, and the COUNT(*) of all matches, at once on two connections; then the page's store
 * customer ids and product names, read by id, as the service asks the modules that own them),
 * the same signed cursors and an envelope of the same shape; nothing else (no authentication, rate limit, validation, framework, TypeORM). The status
 * is the stored one (the service derives the effective status from expiry and usage too). Run by
 * the harness as a child process: MERCHANT_ID, PORT and CURSOR_SECRET set, the mode is live.
 */
const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
const merchantId = process.env.MERCHANT_ID ?? '';
useCursorSecret(Buffer.from(process.env.CURSOR_SECRET ?? '', 'utf8'));

interface ListRow {
  id: string;
  customer_id: string;
  product_id: string;
  status: string;
  granted_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  revocation_reason: string | null;
  usage_count: number;
  usage_limit: number | null;
  source: string;
  store_order_id: string | null;
  metadata: unknown;
  test_clock_id: string | null;
  created_at: Date;
  updated_at: Date;
}

const PAGE_SQL = (afterCursor: boolean) => `
  SELECT e.id, e.customer_id, e.product_id, e.status, e.granted_at, e.expires_at, e.revoked_at, e.revocation_reason,
         e.usage_count, e.usage_limit, e.source, e.store_order_id, e.metadata, e.test_clock_id, e.created_at, e.updated_at
  FROM entitlements e
  WHERE e.merchant_id = $1 AND e.mode = 'live' AND e.customer_id = $2
  ${afterCursor ? 'AND (e.created_at, e.id) < ($4, $5)' : ''}
  ORDER BY e.created_at DESC, e.id DESC
  LIMIT $3`;
const COUNT_SQL = `SELECT COUNT(*) AS total FROM entitlements e WHERE e.merchant_id = $1 AND e.mode = 'live' AND e.customer_id = $2`;
const CUSTOMERS_SQL = `SELECT id, store_customer_id FROM customers WHERE merchant_id = $1 AND mode = 'live' AND id = ANY($2)`;
const PRODUCTS_SQL = `SELECT id, name FROM products WHERE merchant_id = $1 AND mode = 'live' AND id = ANY($2)`;

const iso = (value: Date | null) => (value === null ? null : new Date(value).toISOString());

function item(row: ListRow, storeCustomerIds: Map<string, string>, productNames: Map<string, string>) {
  return {
    id: row.id,
    customer_id: row.customer_id,
    store_customer_id: storeCustomerIds.get(row.customer_id) ?? null,
    product_id: row.product_id,
    status: row.status,
    granted_at: iso(row.granted_at),
    expires_at: iso(row.expires_at),
    revoked_at: iso(row.revoked_at),
    revocation_reason: row.revocation_reason,
    usage_count: row.usage_count,
    usage_limit: row.usage_limit,
    source: row.source,
    store_order_id: row.store_order_id,
    metadata: row.metadata,
    test_clock: row.test_clock_id,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    product_name: productNames.get(row.product_id) ?? null,
  };
}

async function listPage(customerId: string, limit: number, cursor: string | undefined): Promise<string> {
  const after = cursor === undefined ? null : decodeCursor(cursor);
  const parameters: unknown[] = [merchantId, customerId, limit + 1, ...(after ? [after.at, after.id] : [])];
  const [page, count] = await Promise.all([
    pool.query<ListRow>({ name: after ? 'raw_list_after' : 'raw_list_first', text: PAGE_SQL(after !== null), values: parameters }),
    pool.query<{ total: string }>({ name: 'raw_list_count', text: COUNT_SQL, values: [merchantId, customerId] }),
  ]);
  const hasMore = page.rows.length > limit;
  const rows = hasMore ? page.rows.slice(0, limit) : page.rows;
  const last = rows[rows.length - 1];
  const [customers, products] = await Promise.all([
    pool.query<{ id: string; store_customer_id: string }>({ name: 'raw_list_customers', text: CUSTOMERS_SQL, values: [merchantId, [...new Set(rows.map((row) => row.customer_id))]] }),
    pool.query<{ id: string; name: string }>({ name: 'raw_list_products', text: PRODUCTS_SQL, values: [merchantId, [...new Set(rows.map((row) => row.product_id))]] }),
  ]);
  const storeCustomerIds = new Map(customers.rows.map((row) => [row.id, row.store_customer_id]));
  const productNames = new Map(products.rows.map((row) => [row.id, row.name]));
  return JSON.stringify({
    data: rows.map((row) => item(row, storeCustomerIds, productNames)),
    meta: { request_id: `req_${randomBytes(12).toString('base64url')}`, timestamp: new Date().toISOString() },
    pagination: {
      total: Number(count.rows[0]?.total ?? 0),
      limit,
      has_more: hasMore,
      next_cursor: hasMore && last ? encodeCursor({ at: new Date(last.created_at).toISOString(), id: last.id }) : null,
    },
  });
}

const server = createServer((request, response) => {
  const url = request.url ?? '/';
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  const query = parseQuery(queryStart === -1 ? '' : url.slice(queryStart + 1));
  if (path !== '/v1/entitlements' || typeof query.customer_id !== 'string') {
    response.writeHead(404).end();
    return;
  }
  const limit = typeof query.limit === 'string' ? Number(query.limit) : 25;
  listPage(query.customer_id, limit, typeof query.cursor === 'string' ? query.cursor : undefined).then(
    (body) => response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) }).end(body),
    (error: Error) => response.writeHead(500).end(error.message),
  );
});
server.keepAliveTimeout = 5_000;
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('API listening (raw list server)\n'));
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void pool.end().then(() => process.exit(0));
});
