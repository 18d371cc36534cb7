import { readFileSync } from 'node:fs';
import { api, createScratchDatabase, runScript, Server } from './harness';
import { startWebhookSink } from './scenarios';
import { downloadPaths, seedMerchant } from './seed';

/**
 * `node -r ts-node/register/transpile-only bench/count-statements.ts`: the statements one
 * idempotent create, one order of five line items and one download URL send to PostgreSQL, read
 * from pg_stat_database's transaction counters and from PostgreSQL's own log: the database gets
 * `log_statement = 'all'` (needs a superuser on DATABASE_URL's server). With PG_LOG_FILE (the
 * server's log, e.g. /var/log/postgresql/postgresql-15-main.log) it prints each request's
 * statements and their count; otherwise it says where to look. The database is dropped afterwards.
 */
async function main(): Promise<void> {
  const scratch = await createScratchDatabase('eh_count');
  const { admin, name: databaseName } = scratch;
  // The markers that bracket each request in the log are this session's statements.
  await admin.query(`SET log_statement = 'all'`);
  const server = await Server.start(scratch.url, 'express');
  const sink = await startWebhookSink();
  try {
    const seed = await seedMerchant(server, { products: 5, downloadEntitlements: 2 });
    await api(server.baseUrl, 'POST', '/v1/webhook-endpoints', seed.key, { url: sink.url, enabled_events: ['entitlement.created', 'order.created'] });
    // New sessions of this database log every statement; the pool's open ones keep their setting, so restart.
    await admin.query(`ALTER DATABASE "${databaseName}" SET log_statement = 'all'`);
    await server.stop();
    const logged = await Server.start(scratch.url, 'express');
    const marker = async (label: string) => admin.query(`SELECT $1::text AS marker`, [`bench-count ${databaseName} ${label}`]);
    const requests: Array<[string, (attempt: number) => { method: string; route: string; headers: Record<string, string>; body?: unknown }]> = [
      ['download', () => ({ method: 'GET', route: downloadPaths(seed.downloads)[0], headers: {} })],
      [
        'create',
        (attempt) => ({
          method: 'POST',
          route: '/v1/entitlements',
          headers: { 'Idempotency-Key': `count-${attempt}` },
          body: { store_customer_id: `count_customer_${attempt}`, product_id: seed.productIds[0] },
        }),
      ],
      [
        'order',
        (attempt) => ({
          method: 'POST',
          route: '/v1/orders',
          headers: { 'Idempotency-Key': `count-order-${attempt}` },
          body: {
            store_order_id: `count_order_${attempt}`,
            store_customer_id: `count_buyer_${attempt}`,
            line_items: seed.productIds.map((_, line) => ({ store_line_item_id: `li_${attempt}_${line}`, store_product_id: `bench_sku_${line}`, quantity: 1 })),
          },
        }),
      ],
    ];
    for (const [label, build] of requests) {
      // The first request of a kind warms caches and prepares statements; the second is counted.
      for (const attempt of [1, 2]) {
        if (attempt === 2) await marker(`${label} start`);
        const { method, route, headers, body } = build(attempt);
        const response = await fetch(`${logged.baseUrl}${route}`, {
          method,
          headers: { Authorization: `Bearer ${seed.key}`, 'Content-Type': 'application/json', ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        await response.text();
        if (!response.ok) throw new Error(`${label}: ${response.status}`);
      }
      await marker(`${label} end`);
    }
    await logged.stop();
    const logFile = process.env.PG_LOG_FILE;
    if (!logFile) {
      process.stdout.write(`markers written: see the lines between 'bench-count ${databaseName} <label> start' and '… end' in PostgreSQL's log\n`);
      return;
    }
    const log = readFileSync(logFile, 'utf8').split('\n');
    for (const [label] of requests) {
      const start = log.findIndex((line) => line.includes(`bench-count ${databaseName} ${label} start`));
      const end = log.findIndex((line) => line.includes(`bench-count ${databaseName} ${label} end`));
      const lines = log.slice(start, end).filter((line) => line.includes(`@${databaseName} LOG:`));
      const sent = (line: string) => /LOG: {2}(statement|execute)/.test(line);
      // A request with a transaction: its backend is the one that opened it (the webhook dispatcher's
      // statements interleave on others). One without (a download's read and write) may use two of the
      // pool's connections: every backend counts, less the dispatcher's claims.
      const backend = /\[(\d+)\]/.exec(lines.find((line) => line.includes('START TRANSACTION')) ?? '')?.[1];
      const statements = backend
        ? lines.filter((line) => line.includes(`[${backend}]`) && sent(line))
        : lines.filter((line) => sent(line) && !/webhook_claim_deliveries|pg_advisory_xact_lock/.test(line));
      process.stdout.write(`${label}: ${statements.length} statements\n${statements.map((line) => `  ${line.replace(/^.*LOG: {2}/, '').slice(0, 110)}`).join('\n')}\n`);
    }
  } finally {
    await sink.close();
    await scratch.drop();
  }
}

runScript(main);
