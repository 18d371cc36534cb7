import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Client } from 'pg';
import { generateId } from '../src/ids/id';
import { encodeCursor, useCursorSecret } from '../src/pagination/cursor';
import { availableParallelism, loadavg } from 'node:os';
import { Adapter, api, BENCH_WEBHOOK_CONCURRENCY, createScratchDatabase, CURSOR_SECRET, LoadOptions, measure, pinLoadGenerator, residentMegabytes, rotating, runScript, ScenarioResult, Server } from './harness';
import { withEntitlementHotUpdates } from './hot-updates';
import { ImportBenchmarkResult, measureImport } from './imports';
import { alternateMetricsOffAndOn, MetricsCostRounds } from './metrics-cost';
import { downloadPaths, SeededMerchant, seedMerchant } from './seed';
import {
  alternateCheckLimitAndCeiling,
  CheckRounds,
  CreatesResult,
  measureCreates,
  measureFixedRateCheck,
  measureNeighbourDuringBurst,
  measureOrders,
  median,
  NeighbourResult,
  ScenarioContext,
  seedNeighbour,
  startWebhookSink,
} from './scenarios';
import { measureTokens, TokenBenchmarkResult } from './tokens';
import { measureWebhookBurst, RECEIVER_DELAY_MILLISECONDS, WebhookBurstResult } from './webhooks';

/**
 * `npm run bench`: seeds a merchant with 10,000 and then 1,000,000 entitlements (bulk SQL) in a
 * database of its own on the PostgreSQL server of DATABASE_URL, runs the built service in a child
 * process (so the load generator and the server each have a core) and measures the access check,
 * the framework ceiling (/health/live), entitlement list pages and download URL issuance with 10
 * and 50 connections. Prints a table and writes bench/results.json. BENCH_SMOKE=1: tiny data,
 * short runs (CI keeps the harness from rotting; its numbers mean nothing).
 */
const SMOKE = process.env.BENCH_SMOKE === '1';
/** BENCH_ONLY=metrics-cost: the small size seeded and only the metrics-on/off comparison run (minutes, not an hour). */
const ONLY_METRICS_COST = process.env.BENCH_ONLY === 'metrics-cost';
/** BENCH_ONLY=neighbour: the small size seeded and only the neighbour scenario run, on both adapters (a few minutes). */
const ONLY_NEIGHBOUR = process.env.BENCH_ONLY === 'neighbour';
/** BENCH_ONLY=lists: both sizes seeded, only the list pages at 10 connections, the service's beside the raw list server's. */
const ONLY_LISTS = process.env.BENCH_ONLY === 'lists';
const ALL_SIZES = SMOKE ? [1_000, 5_000] : [10_000, 1_000_000];
const SIZES = ONLY_METRICS_COST || ONLY_NEIGHBOUR ? ALL_SIZES.slice(0, 1) : ALL_SIZES;
/** The fair share's limits, passed to the servers when set (e.g. a huge MERCHANT_REQUESTS_IN_FLIGHT for a run without it). */
const FAIR_SHARE_VARIABLES = ['MERCHANT_REQUESTS_IN_FLIGHT', 'MERCHANT_REQUEST_QUEUE', 'MERCHANT_REQUEST_QUEUE_TIMEOUT'];
/** A per-merchant limit no scenario reaches: the service without the fair share. */
const UNREACHED_LIMIT = '1000000';
/** BENCH_ONLY=neighbour: rounds of the neighbour scenario per adapter and side (the median ratio is the measure). */
const NEIGHBOUR_ROUNDS = Number(process.env.BENCH_NEIGHBOUR_ROUNDS ?? 3);
const DURATION_SECONDS = SMOKE ? 1 : 10;
const WARMUP_SECONDS = SMOKE ? 0 : 2;
const CONNECTIONS = [10, 50];
const DOWNLOAD_ENTITLEMENTS = SMOKE ? 10 : 200;
/** Alternated check / ceiling rounds per adapter; the median ratio is the throughput target's measure. */
const CHECK_ROUNDS = SMOKE ? 1 : 3;
/** Check rounds with metrics off and on, alternating which goes first (even, so each side leads as often). */
const METRICS_COST_ROUNDS = SMOKE ? 2 : 6;
const PRODUCT_COUNT = 10;
const ENTITLEMENTS_PER_CUSTOMER = 5;
/** Rows of the import benchmark (BENCH_IMPORT_ROWS overrides, e.g. a full-size import in a smoke run). */
const IMPORT_ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? (SMOKE ? 1_000 : 100_000));
const IMPORT_TARGET_SECONDS = 60;
/** Events of the webhook burst (one merchant's import, each an entitlement.created to one endpoint). */
const WEBHOOK_BURST_EVENTS = SMOKE ? 200 : 10_000;
/** The scenarios issue 26's memory target covers. */
const RSS_SCENARIOS = ['entitlements/check', 'download URL', 'entitlement create'];
useCursorSecret(Buffer.from(CURSOR_SECRET, 'utf8'));

interface Seed extends SeededMerchant {
  customers: string[];
  /** Store ids aligned with `customers`. */
  storeCustomerIds: string[];
  largeCustomerId: string;
  deepCursor: string;
}

/** The search scenario's requests: ids and store ids of seeded customers, and the broadest prefix. */
function searchPaths(seed: Seed): string[] {
  const picks = [0, Math.floor(seed.customers.length / 2), seed.customers.length - 1].filter((index) => index >= 0 && index < seed.customers.length);
  const queries = [...picks.map((index) => seed.customers[index]), ...picks.map((index) => seed.storeCustomerIds[index]), 'bench_customer_', 'bench_', seed.largeCustomerId];
  return queries.map((q) => `/v1/search?q=${encodeURIComponent(q)}`);
}

/** Grows the merchant to `total` entitlements: customers with 5 products each plus one large customer (10%). */
async function growEntitlements(database: Client, seed: Seed, current: number, total: number): Promise<void> {
  const largeShare = Math.floor((total - current) / 10);
  const regular = total - current - largeShare;
  const batch = 10_000;
  const now = Date.now();
  let written = 0;
  const insertBatch = async (rows: Array<{ customerId: string; productId: string }>) => {
    const ids = rows.map(() => generateId('ent'));
    const createdAt = rows.map((_, index) => new Date(now - (current + written + index) * 10).toISOString());
    await database.query(
      `INSERT INTO entitlements (id, merchant_id, mode, customer_id, product_id, status, granted_at, source, metadata, created_at, updated_at)
       SELECT id, $1, 'live', customer_id, product_id, 'active', created_at, 'import', '{}'::jsonb, created_at, created_at
       FROM unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[]) AS t(id, customer_id, product_id, created_at)`,
      [seed.merchantId, ids, rows.map((row) => row.customerId), rows.map((row) => row.productId), createdAt],
    );
    written += rows.length;
  };
  let pending: Array<{ customerId: string; productId: string }> = [];
  const customerCount = Math.ceil(regular / ENTITLEMENTS_PER_CUSTOMER);
  for (let start = 0; start < customerCount; start += batch) {
    const ids: string[] = [];
    const storeIds: string[] = [];
    for (let index = start; index < Math.min(customerCount, start + batch); index += 1) {
      ids.push(generateId('cus'));
      storeIds.push(`bench_customer_${current}_${index}`);
    }
    await database.query(
      `INSERT INTO customers (id, merchant_id, mode, store_customer_id) SELECT id, $1, 'live', store_id FROM unnest($2::text[], $3::text[]) AS t(id, store_id)`,
      [seed.merchantId, ids, storeIds],
    );
    seed.customers.push(...ids);
    seed.storeCustomerIds.push(...storeIds);
    for (const customerId of ids) {
      // Products 0..4 are granted; 5..9 are the check's misses.
      for (let product = 0; product < ENTITLEMENTS_PER_CUSTOMER; product += 1) {
        pending.push({ customerId, productId: seed.productIds[product] });
        if (pending.length === batch) {
          await insertBatch(pending);
          pending = [];
        }
      }
    }
  }
  for (let index = 0; index < largeShare; index += 1) {
    pending.push({ customerId: seed.largeCustomerId, productId: seed.productIds[index % PRODUCT_COUNT] });
    if (pending.length === batch) {
      await insertBatch(pending);
      pending = [];
    }
  }
  if (pending.length > 0) await insertBatch(pending);
  // Steady state: autovacuum would have set the visibility map that index-only counts need.
  await database.query('VACUUM ANALYZE entitlements');
  await database.query('VACUUM ANALYZE customers');
  // And the bulk load's dirty pages written out now rather than by the checkpointer during the
  // next scenarios. (The 1M phase's 2× slowdown before 2026-11-25 was webhook retries: bench/README.md.)
  await database.query('CHECKPOINT').catch((error: unknown) => {
    process.stdout.write(`CHECKPOINT skipped (${error instanceof Error ? error.message : String(error)}): the first scenarios after the load may share the machine with the checkpointer\n`);
  });
}

/** A cursor 90% of the way through the large customer's entitlements. */
async function deepCursor(database: Client, seed: Seed): Promise<string> {
  const { rows } = await database.query<{ id: string; created_at: Date; total: string }>(
    `SELECT id, created_at, count(*) OVER () AS total FROM entitlements
     WHERE merchant_id = $1 AND mode = 'live' AND customer_id = $2
     ORDER BY created_at DESC, id DESC OFFSET (SELECT (count(*) * 0.9)::int FROM entitlements WHERE merchant_id = $1 AND customer_id = $2) LIMIT 1`,
    [seed.merchantId, seed.largeCustomerId],
  );
  return encodeCursor({ at: rows[0].created_at.toISOString(), id: rows[0].id });
}

function checkPaths(seed: Seed): string[] {
  const paths: string[] = [];
  for (let index = 0; index < 2_000; index += 1) {
    const customer = Math.floor((index * 7919) % seed.customers.length);
    const product = index % PRODUCT_COUNT; // 0..4 hit, 5..9 miss
    paths.push(
      index % 2 === 0
        ? `/v1/entitlements/check?customer_id=${seed.customers[customer]}&product_id=${seed.productIds[product]}`
        : `/v1/entitlements/check?store_customer_id=${seed.storeCustomerIds[customer]}&store_product_id=bench_sku_${product}`,
    );
  }
  return paths;
}

function printTable(results: ScenarioResult[]): void {
  const header = ['adapter', 'entitlements', 'scenario', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'peak RSS MB', 'entitlement HOT %'];
  const rows = results.map((result) => [
    result.adapter,
    result.size.toLocaleString('en'),
    result.scenario,
    String(result.connections),
    String(result.requestsPerSecond),
    String(result.p50Milliseconds),
    String(result.p99Milliseconds),
    String(result.non2xx),
    String(result.errors),
    String(result.peakRssMegabytes),
    result.entitlementHot ? `${result.entitlementHot.hotPercent} (${result.entitlementHot.hotUpdates}/${result.entitlementHot.updates})` : '',
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column])).join('  ');
  process.stdout.write(`${line(header)}\n${widths.map((width) => '-'.repeat(width)).join('  ')}\n${rows.map(line).join('\n')}\n`);
}

/** One target of the run: what it asks, what was measured, and whether it was met. */
interface Target {
  target: string;
  measured: string;
  met: boolean;
}

async function main(): Promise<void> {
  const pinning = pinLoadGenerator();
  process.stdout.write(pinning ? `load generator on cpu ${pinning.load}, servers on cpu ${pinning.server}\n` : 'no cpu pinning (BENCH_LOAD_CPUS unset)\n');
  const loadAverageAtStart = loadavg();
  const scratch = await createScratchDatabase('eh_bench');
  const fairShare = Object.fromEntries(FAIR_SHARE_VARIABLES.flatMap((name) => (process.env[name] ? [[name, process.env[name] ?? '']] : [])));
  const serverEnvironment = { WEBHOOK_ENDPOINT_CONCURRENCY: BENCH_WEBHOOK_CONCURRENCY, ...fairShare };
  const server = await Server.start(scratch.url, 'express', serverEnvironment);
  // Started once the first has migrated the database; idle while the other is measured.
  let fastify: Server | null = null;
  let raw: Server | null = null;
  let rawList: Server | null = null;
  const database = new Client({ connectionString: scratch.url });
  const results: ScenarioResult[] = [];
  const rounds: CheckRounds[] = [];
  const neighbours: NeighbourResult[] = [];
  /** BENCH_ONLY=neighbour: the same scenario on servers without the fair share. */
  const neighboursWithoutShare: NeighbourResult[] = [];
  const creates: Array<CreatesResult & { adapter: Adapter }> = [];
  const bursts: WebhookBurstResult[] = [];
  const metricsCosts: MetricsCostRounds[] = [];
  const sink = await startWebhookSink();
  let tokens: TokenBenchmarkResult | null = null;
  let imports: ImportBenchmarkResult | null = null;
  try {
    await database.connect();
    const base = await seedMerchant(server, { products: PRODUCT_COUNT, downloadEntitlements: DOWNLOAD_ENTITLEMENTS });
    // Creates and orders publish events to a subscribed endpoint, as a merchant's would.
    await api(server.baseUrl, 'POST', '/v1/webhook-endpoints', base.key, { url: sink.url, enabled_events: ['entitlement.created', 'order.created'] });
    const neighbour = await seedNeighbour(server);
    fastify = await Server.start(scratch.url, 'fastify', serverEnvironment);
    raw = await Server.startRawCheck(scratch.url, base.merchantId);
    rawList = await Server.startRawList(scratch.url, base.merchantId);
    const servers: Array<[Adapter, Server]> = [
      ['express', server],
      ['fastify', fastify],
    ];
    const largeCustomerId = generateId('cus');
    await database.query(`INSERT INTO customers (id, merchant_id, mode, store_customer_id) VALUES ($1, $2, 'live', 'bench_large_customer')`, [
      largeCustomerId,
      base.merchantId,
    ]);
    const seed: Seed = { ...base, customers: [], storeCustomerIds: [], largeCustomerId, deepCursor: '' };
    let current = 1;
    for (const size of SIZES) {
      const started = Date.now();
      await growEntitlements(database, seed, current, size);
      current = size;
      seed.deepCursor = await deepCursor(database, seed);
      process.stdout.write(`seeded ${size.toLocaleString('en')} entitlements in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
      const listBase = `/v1/entitlements?customer_id=${seed.largeCustomerId}&limit=25`;
      const downloadTargets = downloadPaths(seed.downloads);
      const paths = checkPaths(seed);
      if (ONLY_METRICS_COST) {
        for (const [adapter] of servers) {
          const context: ScenarioContext = { adapter, size, seconds: DURATION_SECONDS, warmupSeconds: WARMUP_SECONDS, key: seed.key };
          metricsCosts.push(await alternateMetricsOffAndOn(scratch.url, serverEnvironment, context, paths, METRICS_COST_ROUNDS));
        }
        continue;
      }
      if (ONLY_LISTS) {
        const listScenarios: Array<[string, string]> = [
          ['list first page', listBase],
          ['list deep cursor page', `${listBase}&cursor=${encodeURIComponent(seed.deepCursor)}`],
        ];
        for (const [scenarioName, listPath] of listScenarios) {
          for (const [adapter, target] of servers) {
            results.push(await measure(target, { adapter, size, scenario: scenarioName, warmupSeconds: WARMUP_SECONDS }, { connections: 10, seconds: DURATION_SECONDS, key: seed.key, next: rotating([listPath]) }));
          }
          results.push(await measure(rawList, { adapter: 'raw', size, scenario: `raw node:http + pg ${scenarioName}`, warmupSeconds: WARMUP_SECONDS }, { connections: 10, seconds: DURATION_SECONDS, next: rotating([listPath]) }));
        }
        continue;
      }
      if (ONLY_NEIGHBOUR) {
        // Beside each adapter's server, one without the share (a limit nobody reaches), measured in
        // turn in the same minutes: on a shared machine only a comparison within one run means much.
        for (const [adapter, target] of servers) {
          const unshared = await Server.start(scratch.url, adapter, { ...serverEnvironment, MERCHANT_REQUESTS_IN_FLIGHT: UNREACHED_LIMIT });
          try {
            const context: ScenarioContext = { adapter, size, seconds: DURATION_SECONDS, warmupSeconds: WARMUP_SECONDS, key: seed.key };
            // Rounds in turn, each side leading as often: the VM's speed moves several-fold between
            // one 10-second window and the next here, so one round's ratio says little; the median does.
            for (let round = 0; round < NEIGHBOUR_ROUNDS; round += 1) {
              const sides: Array<[string, Server]> = [['without the share', unshared], ['', target]];
              for (const [label, server] of round % 2 === 0 ? sides : sides.reverse()) {
                const neighbourResult = await measureNeighbourDuringBurst(server, context, neighbour, downloadTargets);
                const named = (result: ScenarioResult) => ({ ...result, scenario: label === '' ? result.scenario : `${result.scenario} (${label})` });
                (label === '' ? neighbours : neighboursWithoutShare).push(neighbourResult);
                results.push(named(neighbourResult.quiet), named(neighbourResult.burst), named(neighbourResult.duringBurst));
              }
            }
            // What the share costs a merchant alone: its check at 10 connections, with and without, alternated.
            for (let round = 0; round < CHECK_ROUNDS; round += 1) {
              const order: Array<[string, Server]> = round % 2 === 0 ? [['', target], ['without the share', unshared]] : [['without the share', unshared], ['', target]];
              for (const [label, server] of order) {
                const scenarioName = `entitlements/check, one merchant alone${label === '' ? '' : ` (${label})`}`;
                results.push(await measure(server, { adapter, size, scenario: scenarioName, warmupSeconds: WARMUP_SECONDS }, { connections: 10, seconds: DURATION_SECONDS, key: seed.key, next: rotating(paths) }));
              }
            }
          } finally {
            await unshared.stop();
          }
        }
        continue;
      }
      for (const connections of CONNECTIONS) {
        for (const [adapter, target] of servers) {
          const scenario = (scenarioName: string, options: Omit<LoadOptions, 'connections' | 'seconds'>) =>
            measure(target, { adapter, size, scenario: scenarioName, warmupSeconds: WARMUP_SECONDS }, { connections, seconds: DURATION_SECONDS, ...options });
          results.push(await scenario('health/live (ceiling)', { next: rotating(['/health/live']) }));
          results.push(await scenario('entitlements/check', { key: seed.key, next: rotating(paths) }));
          results.push(await scenario('list first page', { key: seed.key, next: rotating([listBase]) }));
          results.push(await scenario('list deep cursor page', { key: seed.key, next: rotating([`${listBase}&cursor=${encodeURIComponent(seed.deepCursor)}`]) }));
          // GET /v1/search (issue 34): a pasted customer id, an exact store id, and a short prefix that every seeded customer shares.
          results.push(await scenario('search', { key: seed.key, next: rotating(searchPaths(seed)) }));
          // Beside the downloads/s: how many of the entitlements' updates were HOT (issue 39: ≥ 90 %).
          const downloads = await withEntitlementHotUpdates(database, seed.downloads[0].fileId, () => scenario('download URL', { key: seed.key, next: rotating(downloadTargets) }));
          results.push({ ...downloads.result, entitlementHot: downloads.hot });
        }
        // The raw servers beside them, at the same size and connections (the limits; no RSS target).
        results.push(await measure(raw, { adapter: 'raw', size, scenario: 'raw node:http + pg check (limit)', warmupSeconds: WARMUP_SECONDS }, { connections, seconds: DURATION_SECONDS, next: rotating(paths) }));
        results.push(await measure(rawList, { adapter: 'raw', size, scenario: 'raw node:http + pg list first page', warmupSeconds: WARMUP_SECONDS }, { connections, seconds: DURATION_SECONDS, next: rotating([listBase]) }));
        results.push(
          await measure(rawList, { adapter: 'raw', size, scenario: 'raw node:http + pg list deep cursor page', warmupSeconds: WARMUP_SECONDS }, {
            connections,
            seconds: DURATION_SECONDS,
            next: rotating([`${listBase}&cursor=${encodeURIComponent(seed.deepCursor)}`]),
          }),
        );
      }
      if (size !== SIZES[0]) continue;
      // At the small size only: the targets that are not about data size.
      for (const [adapter, target] of servers) {
        const context: ScenarioContext = { adapter, size, seconds: DURATION_SECONDS, warmupSeconds: WARMUP_SECONDS, key: seed.key };
        rounds.push(await alternateCheckLimitAndCeiling(target, raw, context, paths, CHECK_ROUNDS));
        metricsCosts.push(await alternateMetricsOffAndOn(scratch.url, serverEnvironment, context, paths, METRICS_COST_ROUNDS));
        results.push(await measureFixedRateCheck(target, context, paths));
        // The raw server at the same paced rate: the latency floor of this machine for that load.
        if (adapter === 'express') {
          results.push(
            await measure(raw, { adapter: 'raw', size, scenario: 'raw node:http + pg check at 1,000 req/s (floor)', warmupSeconds: WARMUP_SECONDS }, {
              connections: 10,
              seconds: DURATION_SECONDS,
              next: rotating(paths),
              overallRate: 1_000,
            }),
          );
        }
        const created = await measureCreates(target, context, seed.productIds[0], sink);
        creates.push({ adapter, ...created });
        results.push(created.result);
        results.push(await measureOrders(target, context, seed.productIds.slice(0, 5).map((_, index) => `bench_sku_${index}`)));
        const neighbourResult = await measureNeighbourDuringBurst(target, context, neighbour, downloadTargets);
        neighbours.push(neighbourResult);
        results.push(neighbourResult.quiet, neighbourResult.burst, neighbourResult.duringBurst);
        bursts.push(await measureWebhookBurst(target, adapter, WEBHOOK_BURST_EVENTS, { admin: scratch.admin, database: scratch.name }));
      }
    }
    if (ONLY_METRICS_COST) return reportMetricsCost(metricsCosts);
    if (ONLY_NEIGHBOUR) return reportNeighbours(neighbours, neighboursWithoutShare, results, fairShare, loadAverageAtStart);
    if (ONLY_LISTS) return reportLists(results, loadAverageAtStart);
    tokens = await measureTokens({ baseUrl: server.baseUrl, apiKey: seed.key, entitlementId: seed.downloads[0].entitlementId, durationSeconds: DURATION_SECONDS });
    imports = await measureImport({ baseUrl: server.baseUrl, apiKey: seed.key, storeProductId: 'bench_sku_1', rows: IMPORT_ROWS });
  } finally {
    await database.end().catch(() => undefined);
    const peakRss = { express: residentMegabytes(server.pid, 'VmHWM'), fastify: fastify ? residentMegabytes(fastify.pid, 'VmHWM') : 0 };
    await server.stop();
    await fastify?.stop();
    await raw?.stop();
    await rawList?.stop();
    await scratch.drop();
    await sink.close();
    process.stdout.write(`servers' peak RSS over the whole run (VmHWM): express ${Math.round(peakRss.express)} MB, fastify ${Math.round(peakRss.fastify)} MB\n`);
  }

  printTable(results);
  const find = (scenario: string, size: number, connections: number, adapter: Adapter = 'express') =>
    results.find((result) => result.adapter === adapter && result.scenario === scenario && result.size === size && result.connections === connections);
  const [small, large] = SIZES;
  const adapters: Adapter[] = ['express', 'fastify'];
  const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
  const targets: Target[] = [];
  const add = (target: string, measured: string, met: boolean) => targets.push({ target, measured, met });
  for (const adapter of adapters) {
    const checkRounds = rounds.find((entry) => entry.adapter === adapter);
    add(
      `check ≥ 0.6 of the raw node:http + pg limit, ${adapter} (median of ${CHECK_ROUNDS} alternated rounds, 10 connections)`,
      checkRounds
        ? `${checkRounds.limitMedian} (rounds ${checkRounds.limitRatios.join(', ')}; check ${checkRounds.checkRequestsPerSecond.join(', ')} req/s, limit ${checkRounds.limitRequestsPerSecond.join(', ')} req/s)`
        : 'not measured',
      (checkRounds?.limitMedian ?? 0) >= 0.6,
    );
  }
  for (const cost of metricsCosts) add(...metricsCostTarget(cost));
  for (const adapter of adapters) {
    const check10 = find('entitlements/check', small, 10, adapter);
    add(`check p99 ≤ 5 ms at 10 connections, ${adapter}`, `${check10?.p99Milliseconds ?? '–'} ms (p50 ${check10?.p50Milliseconds ?? '–'} ms)`, (check10?.p99Milliseconds ?? Infinity) <= 5);
    const fixedRate = find('entitlements/check at 1,000 req/s', small, 10, adapter);
    const floor = results.find((result) => result.adapter === 'raw' && result.scenario.startsWith('raw node:http + pg check at 1,000'));
    add(
      `check p99 ≤ 2 ms at a fixed 1,000 req/s (evenly paced), ${adapter}`,
      `${fixedRate?.p99Milliseconds ?? '–'} ms (p50 ${fixedRate?.p50Milliseconds ?? '–'} ms; the raw server at the same rate: p99 ${floor?.p99Milliseconds ?? '–'} ms, p50 ${floor?.p50Milliseconds ?? '–'} ms)`,
      (fixedRate?.p99Milliseconds ?? Infinity) <= 2,
    );
  }
  for (const adapter of adapters) {
    const downloads = find('download URL', small, 10, adapter);
    add(`download URLs ≥ 1,000/s for one merchant at 10 connections, ${adapter}`, `${downloads?.requestsPerSecond ?? '–'}/s`, (downloads?.requestsPerSecond ?? 0) >= 1_000);
    const hot = downloads?.entitlementHot;
    add(
      `entitlement updates of that download scenario ≥ 90 % HOT (pg_stat_user_tables), ${adapter}`,
      hot ? `${hot.hotPercent} % (${hot.hotUpdates} of ${hot.updates}) beside ${downloads?.requestsPerSecond}/s` : 'not measured',
      (hot?.hotPercent ?? 0) >= 90,
    );
  }
  for (const adapter of adapters) {
    const created = creates.find((entry) => entry.adapter === adapter);
    add(
      `creates ≥ 600/s with 16 in flight, each event delivered, ${adapter}`,
      created ? `${created.result.requestsPerSecond}/s; ${created.delivered} of ${created.created} entitlement.created delivered${created.drainedAfterSeconds === null ? ' (not all within 60 s)' : `, the last ${created.drainedAfterSeconds} s after the load`}` : 'not measured',
      (created?.result.requestsPerSecond ?? 0) >= 600 && created?.drainedAfterSeconds !== null,
    );
  }
  for (const adapter of adapters) {
    const burst = bursts.find((entry) => entry.adapter === adapter);
    add(
      `one endpoint whose receiver answers after ${RECEIVER_DELAY_MILLISECONDS} ms receives ≥ 500 deliveries/s of one merchant's burst, order per object kept, ${adapter} (WEBHOOK_ENDPOINT_CONCURRENCY=${BENCH_WEBHOOK_CONCURRENCY})`,
      burst
        ? `${burst.deliveriesPerSecond}/s (${burst.delivered} of ${burst.events} events, ${burst.duplicates} duplicates, ${burst.outOfOrderObjects} objects out of order; server ${burst.serverCpuMicrosecondsPerEvent} µs, database ${burst.databaseCpuMicrosecondsPerEvent} µs CPU per event)`
        : 'not measured',
      burst !== undefined && burst.deliveriesPerSecond >= 500 && burst.delivered === burst.events && burst.outOfOrderObjects === 0,
    );
  }
  for (const adapter of adapters) {
    const peak = Math.max(0, ...results.filter((result) => result.adapter === adapter && RSS_SCENARIOS.some((name) => result.scenario.startsWith(name))).map((result) => result.peakRssMegabytes));
    add(`peak RSS ≤ 250 MB through the check, download and create scenarios, ${adapter}`, `${peak} MB`, peak <= 250);
  }
  // Issue 15's targets that still stand, on the default adapter.
  const check10 = find('entitlements/check', small, 10);
  const checkLarge = find('entitlements/check', large, 10);
  const firstPage = find('list first page', large, 10);
  const deepPage = find('list deep cursor page', large, 10);
  const p50Ratio = check10 && checkLarge ? checkLarge.p50Milliseconds / Math.max(check10.p50Milliseconds, 0.001) : Infinity;
  add(`check p50 at ${large.toLocaleString('en')} entitlements within 1.25× of ${small.toLocaleString('en')}, express`, `${round(p50Ratio)}×`, p50Ratio <= 1.25);
  const search = find('search', large, 10);
  add(`search p99 ≤ 20 ms at ${large.toLocaleString('en')} entitlements, express`, `${search?.p99Milliseconds ?? '–'} ms`, (search?.p99Milliseconds ?? Infinity) <= 20);
  const deepRatio = firstPage && deepPage ? deepPage.p50Milliseconds / Math.max(firstPage.p50Milliseconds, 0.001) : Infinity;
  add('deep cursor page p50 within 1.25× of the first page, express', `${round(deepRatio)}×`, deepRatio <= 1.25);
  const expressNeighbour = neighbours.find((entry) => entry.adapter === 'express');
  add('another merchant’s check p99 during a download burst ≤ 3× its quiet p99, express', `${round(expressNeighbour?.p99Ratio ?? Infinity)}×`, (expressNeighbour?.p99Ratio ?? Infinity) <= 3);
  for (const target of listTargets(results, large)) add(...target);
  const orders = find('order of 5 line items', small, 10);
  add('orders of 5 line items ≥ 200/s, express', `${orders?.requestsPerSecond ?? '–'}/s`, (orders?.requestsPerSecond ?? 0) >= 200);
  add(`import of ${IMPORT_ROWS.toLocaleString('en')} rows ≤ ${IMPORT_TARGET_SECONDS} s`, `${imports?.totalSeconds ?? '–'} s`, (imports?.totalSeconds ?? Infinity) <= IMPORT_TARGET_SECONDS);

  const loadAverageAtEnd = loadavg();
  process.stdout.write(`\ncheck rounds: ${JSON.stringify(rounds)}\n`);
  process.stdout.write(`webhook bursts: ${JSON.stringify(bursts)}\n`);
  process.stdout.write(`entitlement tokens: ${JSON.stringify(tokens)}\n`);
  process.stdout.write(`entitlement import: ${JSON.stringify(imports)}\n`);
  process.stdout.write(`metrics cost: ${JSON.stringify(metricsCosts)}\n`);
  process.stdout.write(`load average (1, 5, 15 min) at start ${loadAverageAtStart.map((value) => value.toFixed(2)).join(', ')}, at end ${loadAverageAtEnd.map((value) => value.toFixed(2)).join(', ')} on ${availableParallelism()} CPUs\n\n`);
  for (const { target, measured, met } of targets) process.stdout.write(`${met ? 'met   ' : 'MISSED'} ${target}: ${measured}\n`);
  writeFileSync(
    path.join(__dirname, SMOKE ? 'results.smoke.json' : 'results.json'),
    `${JSON.stringify(
      { smoke: SMOKE, finishedAt: new Date().toISOString(), loadAverage: { start: loadAverageAtStart, end: loadAverageAtEnd }, pinning, sizes: SIZES, durationSeconds: DURATION_SECONDS, results, rounds, metricsCosts, creates, bursts, neighbours, tokens, imports, targets },
      null,
      2,
    )}\n`,
  );
  const failures = results.filter((result) => result.errors > 0 || result.non2xx > 0).map((result) => result.scenario);
  if (tokens && (tokens.issuance.errors > 0 || tokens.issuance.non2xx > 0)) failures.push('entitlement tokens');
  if (!imports || imports.granted !== IMPORT_ROWS) failures.push('entitlement import');
  for (const burst of bursts) if (burst.delivered !== burst.events || burst.outOfOrderObjects > 0) failures.push(`webhook burst (${burst.adapter})`);
  for (const created of creates) if (created.drainedAfterSeconds === null) failures.push(`creates' events (${created.adapter})`);
  if (failures.length > 0) {
    process.stderr.write(`scenarios with errors, non-2xx answers or lost events: ${failures.join(', ')}\n`);
    process.exitCode = 1;
  }
}

/** Issue 27's target: the check's throughput with metrics on is at least 0.97 of it with metrics off. */
function metricsCostTarget(cost: MetricsCostRounds): [string, string, boolean] {
  return [
    `check with metrics on ≥ 0.97 of its throughput with metrics off (≤ 3 % drop), ${cost.adapter} (median of ${cost.ratios.length} alternated rounds, 10 connections)`,
    `${cost.dropPercent} % drop (ratio ${cost.medianRatio}; rounds ${cost.ratios.join(', ')}; off ${cost.offRequestsPerSecond.join(', ')} req/s, on ${cost.onRequestsPerSecond.join(', ')} req/s; ` +
      `server CPU per check ${cost.cpuIncreasePercent >= 0 ? '+' : ''}${cost.cpuIncreasePercent} % (off ${cost.offCpuMicroseconds.join(', ')} µs, on ${cost.onCpuMicroseconds.join(', ')} µs); ${cost.countedChecks} checks counted)`,
    cost.medianRatio >= 0.97 && cost.countedChecks > 0,
  ];
}

/** Issue 36's list targets at `size` and 10 connections: p99 ≤ 20 ms, and ≥ 0.5 of the raw list server's throughput. */
function listTargets(results: ScenarioResult[], size: number): Array<[string, string, boolean]> {
  const targets: Array<[string, string, boolean]> = [];
  for (const scenario of ['list first page', 'list deep cursor page']) {
    const raw = results.find((result) => result.adapter === 'raw' && result.scenario === `raw node:http + pg ${scenario}` && result.size === size && result.connections === 10);
    for (const adapter of ['express', 'fastify'] as Adapter[]) {
      const served = results.find((result) => result.adapter === adapter && result.scenario === scenario && result.size === size && result.connections === 10);
      const ratio = served && raw && raw.requestsPerSecond > 0 ? Math.round((100 * served.requestsPerSecond) / raw.requestsPerSecond) / 100 : 0;
      targets.push([
        `${scenario} at ${size.toLocaleString('en')} entitlements, 10 connections: p99 ≤ 20 ms and ≥ 0.5 of the raw node:http + pg list server, ${adapter}`,
        `p99 ${served?.p99Milliseconds ?? '–'} ms; ${served?.requestsPerSecond ?? '–'} req/s against ${raw?.requestsPerSecond ?? '–'} (raw p99 ${raw?.p99Milliseconds ?? '–'} ms): ${ratio}`,
        (served?.p99Milliseconds ?? Infinity) <= 20 && ratio >= 0.5,
      ]);
    }
  }
  return targets;
}

/** BENCH_ONLY=lists: the list targets alone, and bench/results.lists.json. */
function reportLists(results: ScenarioResult[], loadAverageAtStart: number[]): void {
  printTable(results);
  const loadAverageAtEnd = loadavg();
  process.stdout.write(`load average (1, 5, 15 min) at start ${loadAverageAtStart.map((value) => value.toFixed(2)).join(', ')}, at end ${loadAverageAtEnd.map((value) => value.toFixed(2)).join(', ')}\n`);
  const targets = SIZES.flatMap((size) => listTargets(results, size));
  for (const [target, measured, met] of targets) process.stdout.write(`${met ? 'met   ' : 'MISSED'} ${target}: ${measured}\n`);
  writeFileSync(
    path.join(__dirname, 'results.lists.json'),
    `${JSON.stringify({ smoke: SMOKE, finishedAt: new Date().toISOString(), loadAverage: { start: loadAverageAtStart, end: loadAverageAtEnd }, results, targets }, null, 2)}\n`,
  );
}

/** BENCH_ONLY=neighbour: the neighbour target per adapter, the scenarios' table, and bench/results.neighbour.json. */
function reportNeighbours(
  neighbours: NeighbourResult[],
  withoutShare: NeighbourResult[],
  results: ScenarioResult[],
  fairShare: Record<string, string>,
  loadAverageAtStart: number[],
): void {
  printTable(results);
  const loadAverageAtEnd = loadavg();
  process.stdout.write(`fair share: ${JSON.stringify(fairShare)} (unset: the defaults)\n`);
  process.stdout.write(`load average (1, 5, 15 min) at start ${loadAverageAtStart.map((value) => value.toFixed(2)).join(', ')}, at end ${loadAverageAtEnd.map((value) => value.toFixed(2)).join(', ')}\n`);
  const line = (neighbour: NeighbourResult, label: string) => {
    const ratio = Math.round(neighbour.p99Ratio * 100) / 100;
    return (
      `${ratio <= 3 ? 'met   ' : 'MISSED'} another merchant's check p99 during a download burst ≤ 3× its quiet p99, ${neighbour.adapter}${label}: ${ratio}× ` +
      `(quiet p99 ${neighbour.quiet.p99Milliseconds} ms, during ${neighbour.duringBurst.p99Milliseconds} ms; burst ${neighbour.burst.requestsPerSecond}/s, ${neighbour.burst.non2xx} non-2xx)\n`
    );
  };
  for (const neighbour of withoutShare) process.stdout.write(line(neighbour, ' (without the share)'));
  for (const neighbour of neighbours) process.stdout.write(line(neighbour, ''));
  for (const [label, side] of [[' (without the share)', withoutShare], ['', neighbours]] as Array<[string, NeighbourResult[]]>) {
    for (const adapter of ['express', 'fastify'] as Adapter[]) {
      const ratios = side.filter((entry) => entry.adapter === adapter).map((entry) => Math.round(entry.p99Ratio * 100) / 100);
      if (ratios.length === 0) continue;
      const middle = median(ratios);
      process.stdout.write(
        `${middle <= 3 ? 'met   ' : 'MISSED'} median of ${ratios.length} rounds: another merchant's check p99 during a download burst ≤ 3× its quiet p99, ${adapter}${label}: ${middle}× (rounds ${ratios.join(', ')})\n`,
      );
    }
  }
  writeFileSync(
    path.join(__dirname, 'results.neighbour.json'),
    `${JSON.stringify({ smoke: SMOKE, finishedAt: new Date().toISOString(), fairShare, loadAverage: { start: loadAverageAtStart, end: loadAverageAtEnd }, neighbours, withoutShare, results }, null, 2)}\n`,
  );
}

/** BENCH_ONLY=metrics-cost: its targets alone, and bench/results.metrics-cost.json. */
function reportMetricsCost(costs: MetricsCostRounds[]): void {
  for (const cost of costs) {
    const [target, measured, met] = metricsCostTarget(cost);
    process.stdout.write(`${met ? 'met   ' : 'MISSED'} ${target}: ${measured}\n`);
  }
  writeFileSync(path.join(__dirname, 'results.metrics-cost.json'), `${JSON.stringify({ smoke: SMOKE, finishedAt: new Date().toISOString(), metricsCosts: costs }, null, 2)}\n`);
}

runScript(main);
