import { Client } from 'pg';
import { ADMIN_TOKEN, api, Server } from './harness';
import { measureCreates, measureOrders, startWebhookSink } from './scenarios';

/**
 * `node -r ts-node/register/transpile-only bench/profile-writes.ts`: the create and order scenarios
 * alone against a fresh database (DATABASE_URL's server), for profiling the write path without
 * the whole benchmark. BENCH_ADAPTER=fastify for the other adapter; BENCH_NODE_OPTIONS are passed
 * to the server (e.g. --cpu-prof).
 */
async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('Set DATABASE_URL');
  const databaseName = `eh_profile_${Date.now().toString(36)}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${databaseName}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${databaseName}`;
  const adapter = process.env.BENCH_ADAPTER === 'fastify' ? 'fastify' : 'express';
  const server = await Server.start(url.toString(), adapter);
  const sink = await startWebhookSink();
  try {
    const merchant = await api<{ id: string }>(server.baseUrl, 'POST', '/admin/v1/merchants', ADMIN_TOKEN, { name: 'Profile', plan: 'enterprise' });
    const key = (await api<{ key: string }>(server.baseUrl, 'POST', `/admin/v1/merchants/${merchant.id}/api-keys`, ADMIN_TOKEN, { mode: 'live', scopes: ['*'] })).key;
    const productIds: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      productIds.push((await api<{ id: string }>(server.baseUrl, 'POST', '/v1/products', key, { name: `P${index}`, store_product_id: `bench_sku_${index}`, entitlement_type: 'permanent' })).id);
    }
    await api(server.baseUrl, 'POST', '/v1/webhook-endpoints', key, { url: sink.url, enabled_events: ['entitlement.created', 'order.created'] });
    const context = { adapter, size: 0, seconds: Number(process.env.BENCH_SECONDS ?? 10), warmupSeconds: 2, key } as const;
    const creates = await measureCreates(server, context, productIds[0]);
    const orders = await measureOrders(server, context, productIds.map((_, index) => `bench_sku_${index}`));
    process.stdout.write(`${JSON.stringify({ creates, orders }, null, 2)}\n`);
  } finally {
    await server.stop();
    await sink.close();
    await admin.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
