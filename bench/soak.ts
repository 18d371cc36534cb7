import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { generateId } from '../src/ids/id';
import { Adapter, BenchRequest, benchServerUrl, createScratchDatabase, percentile, residentMegabytes, runScript, Server } from './harness';
import { OwnCluster, startOwnCluster } from './own-cluster';
import { pacedLoad } from './paced-load';
import { downloadPaths, seedMerchant } from './seed';

/**
 * `npm run bench:soak`: the mixed load of issue 39 (checks 80 %, creates 8 %, downloads 6 %,
 * lists 6 %) at a fixed rate (open loop, bench/paced-load.ts) for SOAK_MINUTES (default 30)
 * against one built server (SOAK_ADAPTER, default express), on two PostgreSQL servers in turn:
 * `own`, a cluster this script starts with initdb on a loopback port of its own with autovacuum
 * on, and `machine`, the server of DATABASE_URL (this machine's runs with autovacuum off).
 * Every minute: p50/p99 by route, the server's RSS, and the entitlements table's dead tuples,
 * autovacuum runs and HOT share. Verdict (issue 39), on the autovacuum-on cluster: every minute's
 * p99 of every route within 1.5× of minute 2's, and RSS within +10 % of minute 2's.
 * SOAK_CLUSTERS=own or =machine runs one; SOAK_RATE (300) changes the rate.
 * Writes bench/results.soak.json.
 */
const MINUTES = Number(process.env.SOAK_MINUTES ?? 30);
const RATE = Number(process.env.SOAK_RATE ?? 300);
const ADAPTER: Adapter = process.env.SOAK_ADAPTER === 'fastify' ? 'fastify' : 'express';
const CLUSTERS = (process.env.SOAK_CLUSTERS ?? 'own,machine').split(',') as ClusterName[];
/** Sockets of the load: enough that a slow answer never holds back the requests due after it. */
const CONNECTIONS = 50;
const PRODUCTS = 10;
/** Bulk-inserted customers holding products 0..4 each (the checks' hits; 5..9 are their misses). */
const CUSTOMERS = 2_000;
const PRODUCTS_PER_CUSTOMER = 5;
/** The verdict's bounds: p99 against minute 2's, RSS against minute 2's. */
const P99_FACTOR = 1.5;
const RSS_FACTOR = 1.1;

type ClusterName = 'own' | 'machine';
type Route = 'check' | 'create' | 'download' | 'list';
const ROUTES: Route[] = ['check', 'create', 'download', 'list'];
/** The mix, as weights. */
const MIX: Record<Route, number> = { check: 80, create: 8, download: 6, list: 6 };

interface RouteMinute {
  requests: number;
  p50Milliseconds: number;
  p99Milliseconds: number;
}

interface Minute {
  minute: number;
  routes: Record<Route, RouteMinute>;
  non2xx: number;
  /** The non-2xx answers by route and status, e.g. `create 503`. */
  non2xxByStatus: Record<string, number>;
  errors: number;
  rssMegabytes: number;
  peakRssMegabytes: number;
  entitlements: { liveTuples: number; deadTuples: number; autovacuums: number; updates: number; hotUpdates: number };
}

interface ClusterSoak {
  cluster: ClusterName;
  autovacuum: string;
  minutes: Minute[];
  verdict: { met: boolean; misses: string[] };
}

/**
 * Smooth weighted round robin: each request goes to the route furthest behind its share, so the
 * mix holds within every few dozen requests (not only on average).
 */
function mixer(): () => Route {
  const credit: Record<Route, number> = { check: 0, create: 0, download: 0, list: 0 };
  const total = ROUTES.reduce((sum, route) => sum + MIX[route], 0);
  return () => {
    for (const route of ROUTES) credit[route] += MIX[route];
    const chosen = ROUTES.reduce((best, route) => (credit[route] > credit[best] ? route : best), ROUTES[0]);
    credit[chosen] -= total;
    return chosen;
  };
}

interface Workload {
  key: string;
  next: () => BenchRequest;
  routeOf: WeakMap<BenchRequest, Route>;
}

/** Seeds the merchant (API and bulk SQL) and returns the mixed load's request source. */
async function prepareWorkload(server: Server, database: Client): Promise<Workload> {
  const seed = await seedMerchant(server, { products: PRODUCTS, downloadEntitlements: 200 });
  const customerIds = Array.from({ length: CUSTOMERS }, () => generateId('cus'));
  const storeIds = customerIds.map((_, index) => `soak_customer_${index}`);
  await database.query(
    `INSERT INTO customers (id, merchant_id, mode, store_customer_id) SELECT id, $1, 'live', store_id FROM unnest($2::text[], $3::text[]) AS t(id, store_id)`,
    [seed.merchantId, customerIds, storeIds],
  );
  const pairs = customerIds.flatMap((customerId) => seed.productIds.slice(0, PRODUCTS_PER_CUSTOMER).map((productId) => ({ customerId, productId })));
  await database.query(
    `INSERT INTO entitlements (id, merchant_id, mode, customer_id, product_id, status, granted_at, source, metadata, created_at, updated_at)
     SELECT id, $1, 'live', customer_id, product_id, 'active', now(), 'import', '{}'::jsonb, now(), now()
     FROM unnest($2::text[], $3::text[], $4::text[]) AS t(id, customer_id, product_id)`,
    [seed.merchantId, pairs.map(() => generateId('ent')), pairs.map((pair) => pair.customerId), pairs.map((pair) => pair.productId)],
  );
  await database.query('VACUUM ANALYZE entitlements');
  await database.query('VACUUM ANALYZE customers');
  const checks = Array.from({ length: 2_000 }, (_, index) => {
    const customer = (index * 7919) % CUSTOMERS;
    const product = index % PRODUCTS; // 0..4 hit, 5..9 miss
    return index % 2 === 0
      ? `/v1/entitlements/check?customer_id=${customerIds[customer]}&product_id=${seed.productIds[product]}`
      : `/v1/entitlements/check?store_customer_id=${storeIds[customer]}&store_product_id=bench_sku_${product}`;
  });
  const downloads = downloadPaths(seed.downloads);
  // A list needs a filter: one product's (2,000 rows, with its total) and download customers' own.
  const lists = [`/v1/entitlements?product_id=${seed.productIds[1]}&limit=25`, ...seed.downloads.slice(0, 50).map((download) => `/v1/entitlements?customer_id=${download.customerId}&limit=25`)];
  const run = randomUUID().slice(0, 8);
  const counters: Record<Route, number> = { check: 0, create: 0, download: 0, list: 0 };
  const nextRoute = mixer();
  const routeOf = new WeakMap<BenchRequest, Route>();
  const build: Record<Route, (index: number) => BenchRequest> = {
    check: (index) => ({ path: checks[index % checks.length] }),
    download: (index) => ({ path: downloads[index % downloads.length] }),
    list: (index) => ({ path: lists[index % lists.length] }),
    create: (index) => ({
      method: 'POST',
      path: '/v1/entitlements',
      headers: { 'idempotency-key': `soak-${run}-${index}` },
      body: JSON.stringify({ store_customer_id: `soak_new_${run}_${index}`, product_id: seed.productIds[index % PRODUCTS] }),
    }),
  };
  return {
    key: seed.key,
    routeOf,
    next: () => {
      const route = nextRoute();
      const request = build[route](counters[route]++);
      routeOf.set(request, route);
      return request;
    },
  };
}

async function entitlementStatistics(database: Client): Promise<Minute['entitlements']> {
  await database.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await database.query<{ live: string; dead: string; autovacuums: string; updates: string; hot: string }>(
    `SELECT n_live_tup AS live, n_dead_tup AS dead, autovacuum_count AS autovacuums, n_tup_upd AS updates, n_tup_hot_upd AS hot
       FROM pg_stat_user_tables WHERE relname = 'entitlements'`,
  );
  const row = rows[0];
  return { liveTuples: Number(row.live), deadTuples: Number(row.dead), autovacuums: Number(row.autovacuums), updates: Number(row.updates), hotUpdates: Number(row.hot) };
}

/** One minute of the mixed load, paced. */
async function soakMinute(server: Server, database: Client, workload: Workload, minute: number): Promise<Minute> {
  const latencies: Record<Route, number[]> = { check: [], create: [], download: [], list: [] };
  const non2xxByStatus: Record<string, number> = {};
  let peakRss = residentMegabytes(server.pid, 'VmRSS');
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, residentMegabytes(server.pid, 'VmRSS'));
  }, 1_000);
  const outcome = await pacedLoad({ baseUrl: server.baseUrl, connections: CONNECTIONS, rate: RATE, seconds: 60, next: workload.next, key: workload.key }, (milliseconds, sent, statusCode) => {
    const route = workload.routeOf.get(sent);
    if (!route) return;
    latencies[route].push(milliseconds);
    if (statusCode < 200 || statusCode >= 300) non2xxByStatus[`${route} ${statusCode}`] = (non2xxByStatus[`${route} ${statusCode}`] ?? 0) + 1;
  });
  clearInterval(sampler);
  const routes = {} as Record<Route, RouteMinute>;
  for (const route of ROUTES) {
    const sorted = latencies[route].sort((left, right) => left - right);
    routes[route] = { requests: sorted.length, p50Milliseconds: percentile(sorted, 0.5), p99Milliseconds: percentile(sorted, 0.99) };
  }
  return {
    minute,
    routes,
    non2xx: outcome.non2xx,
    non2xxByStatus,
    errors: outcome.errors,
    rssMegabytes: Math.round(residentMegabytes(server.pid, 'VmRSS')),
    peakRssMegabytes: Math.round(peakRss),
    entitlements: await entitlementStatistics(database),
  };
}

function printMinute(cluster: ClusterName, entry: Minute): void {
  const routes = ROUTES.map((route) => `${route} ${entry.routes[route].p50Milliseconds}/${entry.routes[route].p99Milliseconds}`).join('  ');
  const { deadTuples, autovacuums, updates, hotUpdates } = entry.entitlements;
  process.stdout.write(
    `[${cluster}] minute ${entry.minute}: p50/p99 ms ${routes}  RSS ${entry.rssMegabytes} MB (peak ${entry.peakRssMegabytes})  ` +
      `non-2xx ${entry.non2xx}${entry.non2xx > 0 ? ` (${JSON.stringify(entry.non2xxByStatus)})` : ''} errors ${entry.errors}  entitlements: ${deadTuples} dead, ${autovacuums} autovacuums, ${hotUpdates}/${updates} HOT\n`,
  );
}

/** Every minute from 2 on against minute 2: p99 of each route ≤ 1.5×, RSS ≤ +10 %. */
function verdictOf(minutes: Minute[]): ClusterSoak['verdict'] {
  const reference = minutes[1];
  if (!reference) return { met: false, misses: ['fewer than 2 minutes: nothing to compare with minute 2'] };
  const misses: string[] = [];
  for (const entry of minutes.slice(1)) {
    for (const route of ROUTES) {
      const bound = P99_FACTOR * reference.routes[route].p99Milliseconds;
      if (entry.routes[route].p99Milliseconds > bound) misses.push(`minute ${entry.minute} ${route} p99 ${entry.routes[route].p99Milliseconds} ms > ${Math.round(bound * 10) / 10} ms`);
    }
    const rssBound = RSS_FACTOR * reference.rssMegabytes;
    if (entry.rssMegabytes > rssBound) misses.push(`minute ${entry.minute} RSS ${entry.rssMegabytes} MB > ${Math.round(rssBound)} MB`);
  }
  return { met: misses.length === 0, misses };
}

async function soak(cluster: ClusterName, serverUrl: string): Promise<ClusterSoak> {
  const scratch = await createScratchDatabase('eh_soak', serverUrl);
  const server = await Server.start(scratch.url, ADAPTER);
  const database = new Client({ connectionString: scratch.url });
  try {
    await database.connect();
    const autovacuum = (await database.query<{ autovacuum: string }>('SHOW autovacuum')).rows[0].autovacuum;
    const workload = await prepareWorkload(server, database);
    process.stdout.write(`[${cluster}] autovacuum ${autovacuum}; ${MINUTES} min at ${RATE} req/s on ${ADAPTER}\n`);
    const minutes: Minute[] = [];
    for (let minute = 1; minute <= MINUTES; minute += 1) {
      const entry = await soakMinute(server, database, workload, minute);
      minutes.push(entry);
      printMinute(cluster, entry);
    }
    return { cluster, autovacuum, minutes, verdict: verdictOf(minutes) };
  } finally {
    await database.end().catch(() => undefined);
    await server.stop();
    await scratch.drop();
  }
}

async function main(): Promise<void> {
  const loadAverageAtStart = loadavg();
  const soaks: ClusterSoak[] = [];
  for (const cluster of CLUSTERS) {
    if (cluster === 'own') {
      // Autovacuum on, as production should run it; everything else at initdb's defaults.
      const own: OwnCluster = await startOwnCluster({ autovacuum: 'on' });
      try {
        soaks.push(await soak('own', own.url));
      } finally {
        own.stop();
      }
    } else if (cluster === 'machine') {
      soaks.push(await soak('machine', benchServerUrl()));
    } else {
      throw new Error(`SOAK_CLUSTERS: unknown cluster '${String(cluster)}' (own, machine)`);
    }
  }
  const loadAverageAtEnd = loadavg();
  for (const { cluster, autovacuum, verdict } of soaks) {
    const target = cluster === 'own' ? 'target' : 'for comparison';
    process.stdout.write(
      `${verdict.met ? 'met   ' : 'MISSED'} [${cluster}, autovacuum ${autovacuum}, ${target}] every minute's p99 within ${P99_FACTOR}× of minute 2's and RSS within +${Math.round((RSS_FACTOR - 1) * 100)} %` +
        `${verdict.misses.length > 0 ? `: ${verdict.misses.join('; ')}` : ''}\n`,
    );
  }
  process.stdout.write(`load average (1, 5, 15 min) at start ${loadAverageAtStart.map((value) => value.toFixed(2)).join(', ')}, at end ${loadAverageAtEnd.map((value) => value.toFixed(2)).join(', ')}\n`);
  writeFileSync(
    path.join(__dirname, 'results.soak.json'),
    `${JSON.stringify({ finishedAt: new Date().toISOString(), minutesPerCluster: MINUTES, rate: RATE, adapter: ADAPTER, mix: MIX, loadAverage: { start: loadAverageAtStart, end: loadAverageAtEnd }, soaks }, null, 2)}\n`,
  );
  if (soaks.some((entry) => entry.minutes.some((minute) => minute.errors > 0 || minute.non2xx > 0))) {
    process.stderr.write('the soak had errors or non-2xx answers\n');
    process.exitCode = 1;
  }
}

runScript(main);
