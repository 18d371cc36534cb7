import { Client } from 'pg';
import { api, BENCH_WEBHOOK_CONCURRENCY, createScratchDatabase, measure, rotating, runScript, Server } from './harness';
import { withEntitlementHotUpdates } from './hot-updates';
import { measureCreates, measureOrders, startWebhookSink } from './scenarios';
import { downloadPaths, seedMerchant } from './seed';
import { measureWebhookBurst } from './webhooks';

/**
 * `node -r ts-node/register/transpile-only bench/profile-writes.ts`: the write scenarios alone
 * (creates, orders, download URLs, a webhook burst to a receiver 50 ms away) against a fresh database on DATABASE_URL's server, for
 * profiling the write path without the whole benchmark. BENCH_ADAPTER=fastify for the other
 * adapter; BENCH_ENTITLEMENTS_FILLFACTOR=<10–100> rewrites entitlements with another fillfactor
 * before the downloads (whose entitlement updates' HOT share is reported); BENCH_SCENARIOS=creates,orders,downloads,webhooks picks some
 * (BENCH_WEBHOOK_EVENTS: the burst's size, 10,000); BENCH_NODE_OPTIONS are passed to
 * the server (e.g. `--cpu-prof --cpu-prof-dir=/tmp/profiles`, then bench/summarize-profile.ts).
 */
async function main(): Promise<void> {
  const scenarios = new Set((process.env.BENCH_SCENARIOS ?? 'creates,orders,downloads,webhooks').split(','));
  const scratch = await createScratchDatabase('eh_profile');
  const adapter = process.env.BENCH_ADAPTER === 'fastify' ? 'fastify' : 'express';
  const server = await Server.start(scratch.url, adapter, { WEBHOOK_ENDPOINT_CONCURRENCY: BENCH_WEBHOOK_CONCURRENCY });
  const sink = await startWebhookSink();
  try {
    const seed = await seedMerchant(server, { products: 5, downloadEntitlements: 200 });
    const context = { adapter, size: 0, seconds: Number(process.env.BENCH_SECONDS ?? 10), warmupSeconds: 2, key: seed.key } as const;
    const results = [];
    if (scenarios.has('downloads')) {
      const load = { connections: 10, seconds: context.seconds, key: seed.key, next: rotating(downloadPaths(seed.downloads)) };
      const database = new Client({ connectionString: scratch.url });
      await database.connect();
      try {
        const fillfactor = process.env.BENCH_ENTITLEMENTS_FILLFACTOR;
        if (fillfactor !== undefined) {
          // Another fillfactor than the migration's, for measuring it: VACUUM FULL rewrites every page with it.
          await database.query(`ALTER TABLE entitlements SET (fillfactor = ${Number(fillfactor)})`);
          await database.query('VACUUM FULL entitlements');
        }
        const downloads = await withEntitlementHotUpdates(database, seed.downloads[0].fileId, () =>
          measure(server, { adapter, size: 0, scenario: 'download URL', warmupSeconds: context.warmupSeconds }, load),
        );
        results.push({ ...downloads.result, entitlementHot: downloads.hot });
      } finally {
        await database.end();
      }
    }
    // Writes publish to a subscribed endpoint, as a merchant's would.
    await api(server.baseUrl, 'POST', '/v1/webhook-endpoints', seed.key, { url: sink.url, enabled_events: ['entitlement.created', 'order.created'] });
    if (scenarios.has('creates')) results.push(await measureCreates(server, context, seed.productIds[0], sink));
    if (scenarios.has('orders')) results.push(await measureOrders(server, context, seed.productIds.map((_, index) => `bench_sku_${index}`)));
    if (scenarios.has('webhooks')) results.push(await measureWebhookBurst(server, adapter, Number(process.env.BENCH_WEBHOOK_EVENTS ?? 10_000), { admin: scratch.admin, database: scratch.name }));
    process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  } finally {
    await server.stop();
    await sink.close();
    await scratch.drop();
  }
}

runScript(main);
