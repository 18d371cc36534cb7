import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import { Pool } from 'pg';
import { buildCheckQuery, Reference } from '../src/entitlements/entitlement-check.query';

/**
 * The limit of this machine for the access check (issue 26): a bare `node:http` server answering
 * `GET /v1/entitlements/check` with the service's own SQL (buildCheckQuery, the same named
 * prepared statements, a pool as large as the service's check pool) and an envelope of the same
 * shape, and nothing else: no authentication, rate limit, security headers, request log or
 * framework. The benchmark alternates it with the service (bench/scenarios.ts); check ÷ this is
 * the target's measure. Run by the harness as a child process: MERCHANT_ID and PORT set, the
 * mode is live, DATABASE_URL is the service's database.
 */
const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_CHECK_POOL_SIZE ?? 4) });
const tenant = { merchantId: process.env.MERCHANT_ID ?? '', mode: 'live' as const };

function referenceOf(id: unknown, storeId: unknown): Reference {
  return typeof id === 'string' ? { id } : { storeId: String(storeId) };
}

const server = createServer((request, response) => {
  const url = request.url ?? '/';
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  if (path !== '/v1/entitlements/check') {
    response.writeHead(404).end();
    return;
  }
  const query = parseQuery(url.slice(queryStart + 1));
  const { name, sql, parameters } = buildCheckQuery(
    tenant,
    referenceOf(query.customer_id, query.store_customer_id),
    referenceOf(query.product_id, query.store_product_id),
    new Date(),
  );
  pool.query({ name, text: sql, values: parameters }).then(
    (result) => {
      const row = result.rows[0] as { id: string; product_id: string; granted_at: Date; expires_at: Date | null; metadata: unknown; source: string } | undefined;
      const data = row
        ? {
            entitled: true,
            entitlement: {
              id: row.id,
              product_id: row.product_id,
              status: 'active',
              granted_at: new Date(row.granted_at).toISOString(),
              expires_at: row.expires_at === null ? null : new Date(row.expires_at).toISOString(),
              metadata: row.metadata,
              access_type: row.source === 'bundle' ? 'bundle' : 'direct',
            },
          }
        : { entitled: false, entitlement: null };
      const body = JSON.stringify({ data, meta: { request_id: `req_${randomBytes(12).toString('base64url')}`, timestamp: new Date().toISOString() } });
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) }).end(body);
    },
    (error: Error) => {
      response.writeHead(500).end(error.message);
    },
  );
});
server.keepAliveTimeout = 5_000;
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('API listening (raw check server)\n'));
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void pool.end().then(() => process.exit(0));
});
