import 'reflect-metadata';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { ENTITIES } from '../src/app-entities';
import { buildDataSourceOptions } from '../src/database/data-source-options';
import { runMigrations } from '../src/database/run-migrations';

/**
 * Bytes on disk per row (heap, TOAST and every index) of the tables that grow with customers and
 * traffic, for docs/scaling.md. Against a scratch database on DATABASE_URL's server: migrations,
 * ROWS rows per table written with generate_series in the shapes the service writes (ids of
 * the service's length, an event carrying an entitlement as `data.object`), VACUUM ANALYZE, then
 * pg_total_relation_size / rows. `node -r ts-node/register/transpile-only bench/row-sizes.ts`
 */
const ROWS = Number(process.env.ROWS ?? 200_000);
const ENTITLEMENT_OBJECT = JSON.stringify({
  id: 'ent_01jd8x2k3m4n5p6q7r8s9t0v1w',
  object: 'entitlement',
  customer_id: 'cus_01jd8x2k3m4n5p6q7r8s9t0v1w',
  store_customer_id: 'shopify_customer_7723411',
  product_id: 'prod_01jd8x2k3m4n5p6q7r8s9t0v1w',
  store_product_id: 'sku_ebook_pro',
  status: 'active',
  source: 'order',
  access_type: 'direct',
  granted_at: '2026-11-26T10:00:00.000Z',
  expires_at: null,
  usage_count: 0,
  usage_limit: null,
  store_order_id: 'order_1001',
  store_line_item_id: 'line_1',
  parent_entitlement_id: null,
  metadata: {},
  revoked_at: null,
  revocation_reason: null,
  created_at: '2026-11-26T10:00:00.000Z',
  updated_at: '2026-11-26T10:00:00.000Z',
  livemode: true,
});

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('Set DATABASE_URL to a PostgreSQL server (a scratch database is made there)');
  const name = `eh_rowsizes_${process.pid}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const dataSource = await new DataSource(buildDataSourceOptions(url.toString(), false, ENTITIES)).initialize();
  try {
    await runMigrations(dataSource);
    const id = (prefix: string) => `'${prefix}_' || lpad(g::text, 26, '0')`;
    await dataSource.query(`INSERT INTO merchants (id, name, plan) VALUES ('mer_sizes', 'Sizes', 'pro')`);
    await dataSource.query(
      `INSERT INTO products (id, merchant_id, mode, name, entitlement_type, fulfillment_config) VALUES ('prod_sizes', 'mer_sizes', 'live', 'Sizes', 'permanent', '{"delivery_method":"FILE"}')`,
    );
    await dataSource.query(
      `INSERT INTO files (id, merchant_id, mode, file_name, file_size, mime_type, object_key, upload_status, upload_expires_at) VALUES ('file_sizes', 'mer_sizes', 'live', 'book.pdf', 1000000, 'application/pdf', 'k', 'CONFIRMED', now())`,
    );
    await dataSource.query(`INSERT INTO webhook_endpoints (id, merchant_id, mode, url, enabled_events, secret) VALUES ('we_sizes', 'mer_sizes', 'live', 'https://hooks.example.com/in', '{*}', 'whsec_x')`);
    const statements = [
      `INSERT INTO customers (id, merchant_id, mode, store_customer_id) SELECT ${id('cus')}, 'mer_sizes', 'live', 'shopify_customer_' || g FROM generate_series(1, $1::int) g`,
      `INSERT INTO entitlements (id, merchant_id, mode, customer_id, product_id, status, granted_at, source, metadata, store_order_id, store_line_item_id, created_at, updated_at)
       SELECT ${id('ent')}, 'mer_sizes', 'live', ${id('cus')}, 'prod_sizes', 'active', now(), 'order', '{}', 'order_' || g, 'line_1', now(), now() FROM generate_series(1, $1::int) g`,
      `INSERT INTO downloads (id, merchant_id, mode, file_id, entitlement_id, customer_id, bytes, downloaded_at, client_address)
       SELECT ${id('dl')}, 'mer_sizes', 'live', 'file_sizes', ${id('ent')}, ${id('cus')}, 1000000, now(), '203.0.113.' || (g % 250) FROM generate_series(1, $1::int) g`,
      `INSERT INTO events (id, merchant_id, mode, type, data, created_at)
       SELECT ${id('evt')}, 'mer_sizes', 'live', 'entitlement.created', jsonb_build_object('object', '${ENTITLEMENT_OBJECT}'::jsonb || jsonb_build_object('id', ${id('ent')})), now() FROM generate_series(1, $1::int) g`,
      `INSERT INTO webhook_deliveries (merchant_id, mode, endpoint_id, event_id, status, attempt_count, next_attempt_at)
       SELECT 'mer_sizes', 'live', 'we_sizes', ${id('evt')}, 'succeeded', 1, now() FROM generate_series(1, $1::int) g`,
      `INSERT INTO webhook_delivery_attempts (id, merchant_id, mode, endpoint_id, event_id, event_type, attempt, succeeded, status_code, duration_ms, response_body, attempted_at)
       SELECT ${id('wd')}, 'mer_sizes', 'live', 'we_sizes', ${id('evt')}, 'entitlement.created', 1, true, 204, 85, null, now() FROM generate_series(1, $1::int) g`,
    ];
    for (const statement of statements) await dataSource.query(statement, [ROWS]);
    await dataSource.query('VACUUM ANALYZE');
    const sizes: { table: string; bytes_per_row: number }[] = [];
    for (const table of ['customers', 'entitlements', 'downloads', 'events', 'webhook_deliveries', 'webhook_delivery_attempts']) {
      const [{ size }] = (await dataSource.query(`SELECT pg_total_relation_size($1) AS size`, [table])) as { size: string }[];
      sizes.push({ table, bytes_per_row: Math.round(Number(size) / ROWS) });
    }
    process.stdout.write(`${JSON.stringify({ rows: ROWS, sizes }, null, 2)}\n`);
  } finally {
    await dataSource.destroy();
    await admin.query(`DROP DATABASE "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
