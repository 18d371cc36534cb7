import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Adapter, ADMIN_TOKEN, api, BenchRequest, loopbackCertificate, measure, rotating, ScenarioResult, Server } from './harness';

/**
 * The write and isolation scenarios of issue 15: entitlement creates with idempotency keys and a
 * subscribed webhook endpoint, orders of five line items, the check at a fixed rate, the check
 * and the ceiling alternated in rounds, and another merchant's checks during a download burst.
 */
export interface ScenarioContext {
  adapter: Adapter;
  size: number;
  seconds: number;
  warmupSeconds: number;
  key: string;
}

/** What a webhook sink received: each delivery's arrival time (ms, monotonic) and body when recording; deliveries by event type always. */
export interface WebhookSink {
  url: string;
  received: Array<{ at: number; body: string }>;
  receivedByType: Map<string, number>;
  close(): Promise<void>;
}

/**
 * A loopback webhook endpoint for the write scenarios: an https receiver (live mode accepts only
 * https) with a certificate the servers trust, answering 204 to every delivery after
 * `delayMilliseconds`, as a healthy merchant's endpoint would. Every event costs its outbox and
 * delivery rows, the dispatcher's claim, the signed POST and the attempt's record: what a
 * subscribed endpoint adds to a write. With `record`, it keeps every delivery it received.
 */
export async function startWebhookSink(options: { delayMilliseconds?: number; record?: boolean } = {}): Promise<WebhookSink> {
  const { keyPath, certificatePath } = loopbackCertificate();
  const received: WebhookSink['received'] = [];
  const receivedByType = new Map<string, number>();
  const server = createServer({ key: readFileSync(keyPath), cert: readFileSync(certificatePath) }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const type = (JSON.parse(body) as { type: string }).type;
      receivedByType.set(type, (receivedByType.get(type) ?? 0) + 1);
      if (options.record) received.push({ at: performance.now(), body });
      if (options.delayMilliseconds) setTimeout(() => response.writeHead(204).end(), options.delayMilliseconds);
      else response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/webhooks`,
    received,
    receivedByType,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The creates' result, and whether the sink received every entitlement.created they published. */
export interface CreatesResult {
  result: ScenarioResult;
  created: number;
  delivered: number;
  /** Seconds from the end of the load until the last of them arrived (null: not all within 60 s). */
  drainedAfterSeconds: number | null;
}

/**
 * POST /v1/entitlements with 16 in flight: a new customer each, a fresh Idempotency-Key each; then
 * waits (≤ 60 s) until `sink` has received every entitlement.created the merchant published meanwhile.
 */
export async function measureCreates(server: Server, context: ScenarioContext, productId: string, sink: WebhookSink): Promise<CreatesResult> {
  const run = randomUUID().slice(0, 8);
  let index = 0;
  const next = (): BenchRequest => {
    index += 1;
    return {
      method: 'POST',
      path: '/v1/entitlements',
      headers: { 'idempotency-key': `bench-${run}-${index}` },
      body: JSON.stringify({ store_customer_id: `bench_create_${run}_${index}`, product_id: productId }),
    };
  };
  const total = async () =>
    (await api<unknown>(server.baseUrl, 'GET', '/v1/events?type=entitlement.created&limit=1', context.key, undefined, true)) as { pagination: { total: number } };
  const eventsBefore = (await total()).pagination.total;
  const deliveredBefore = sink.receivedByType.get('entitlement.created') ?? 0;
  const result = await measure(
    server,
    { adapter: context.adapter, size: context.size, scenario: 'entitlement create (idempotent)', warmupSeconds: context.warmupSeconds },
    { connections: 16, seconds: context.seconds, key: context.key, next },
  );
  const loadEnded = performance.now();
  const created = (await total()).pagination.total - eventsBefore;
  const delivered = () => (sink.receivedByType.get('entitlement.created') ?? 0) - deliveredBefore;
  while (delivered() < created && performance.now() - loadEnded < 60_000) await new Promise((resolve) => setTimeout(resolve, 100));
  const drained = delivered() >= created;
  return { result, created, delivered: delivered(), drainedAfterSeconds: drained ? Math.round((performance.now() - loadEnded) / 100) / 10 : null };
}

/** POST /v1/orders of five line items (five store products), a new order and customer each. */
export function measureOrders(server: Server, context: ScenarioContext, storeProductIds: string[]): Promise<ScenarioResult> {
  const run = randomUUID().slice(0, 8);
  let index = 0;
  const next = (): BenchRequest => {
    index += 1;
    const order = `bench_order_${run}_${index}`;
    return {
      method: 'POST',
      path: '/v1/orders',
      headers: { 'idempotency-key': `bench-${order}` },
      body: JSON.stringify({
        store_order_id: order,
        store_customer_id: `bench_buyer_${run}_${index}`,
        line_items: storeProductIds.slice(0, 5).map((storeProductId, line) => ({ store_line_item_id: `${order}_${line}`, store_product_id: storeProductId, quantity: 1 })),
      }),
    };
  };
  return measure(
    server,
    { adapter: context.adapter, size: context.size, scenario: 'order of 5 line items', warmupSeconds: context.warmupSeconds },
    { connections: 10, seconds: context.seconds, key: context.key, next },
  );
}

/** The check at a fixed 1,000 req/s over 10 connections: latency when the server is not saturated. */
export function measureFixedRateCheck(server: Server, context: ScenarioContext, checkPaths: string[]): Promise<ScenarioResult> {
  return measure(
    server,
    { adapter: context.adapter, size: context.size, scenario: 'entitlements/check at 1,000 req/s', warmupSeconds: context.warmupSeconds },
    { connections: 10, seconds: context.seconds, key: context.key, next: rotating(checkPaths), overallRate: 1_000 },
  );
}

export interface CheckRounds {
  adapter: Adapter;
  /** check req/s ÷ the raw node:http + pg server's req/s (the machine's limit) in each round. */
  limitRatios: number[];
  limitMedian: number;
  /** check req/s ÷ /health/live req/s (the framework's ceiling) in each round. */
  ceilingRatios: number[];
  ceilingMedian: number;
  /** Each round's req/s of the raw server, the check and /health/live. */
  limitRequestsPerSecond: number[];
  checkRequestsPerSecond: number[];
  ceilingRequestsPerSecond: number[];
  checkP99Milliseconds: number[];
}

/** The middle value (the upper one of an even count). */
export const median = (values: number[]) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)];

/**
 * The check, the raw check server (the machine's limit: bench/raw-check-server.ts) and
 * /health/live alternated, `rounds` times each, 10 connections: the median ratio check ÷ limit is
 * issue 26's target, check ÷ ceiling issue 15's.
 */
export async function alternateCheckLimitAndCeiling(server: Server, raw: Server, context: ScenarioContext, checkPaths: string[], rounds: number): Promise<CheckRounds> {
  const result: CheckRounds = {
    adapter: context.adapter,
    limitRatios: [],
    limitMedian: 0,
    ceilingRatios: [],
    ceilingMedian: 0,
    limitRequestsPerSecond: [],
    checkRequestsPerSecond: [],
    ceilingRequestsPerSecond: [],
    checkP99Milliseconds: [],
  };
  for (let round = 0; round < rounds; round += 1) {
    const base = { adapter: context.adapter, size: context.size, warmupSeconds: context.warmupSeconds };
    const load = { connections: 10, seconds: context.seconds };
    const limit = await measure(raw, { ...base, scenario: 'raw limit' }, { ...load, next: rotating(checkPaths) });
    const check = await measure(server, { ...base, scenario: 'check' }, { ...load, key: context.key, next: rotating(checkPaths) });
    const ceiling = await measure(server, { ...base, scenario: 'health/live' }, { ...load, next: rotating(['/health/live']) });
    result.limitRequestsPerSecond.push(limit.requestsPerSecond);
    result.checkRequestsPerSecond.push(check.requestsPerSecond);
    result.ceilingRequestsPerSecond.push(ceiling.requestsPerSecond);
    // A side that answered nothing (a smoke run's second) gives no ratio: 0, never a win.
    const ratio = (served: number, reference: number) => (served > 0 && reference > 0 ? Math.round((100 * served) / reference) / 100 : 0);
    result.limitRatios.push(ratio(check.requestsPerSecond, limit.requestsPerSecond));
    result.ceilingRatios.push(ratio(check.requestsPerSecond, ceiling.requestsPerSecond));
    result.checkP99Milliseconds.push(check.p99Milliseconds);
  }
  result.limitMedian = median(result.limitRatios);
  result.ceilingMedian = median(result.ceilingRatios);
  return result;
}

export interface Neighbour {
  key: string;
  checkPaths: string[];
}

/** A second merchant with its own key, product and 200 entitled customers (through the API). */
export async function seedNeighbour(server: Server): Promise<Neighbour> {
  const merchant = await api<{ id: string }>(server.baseUrl, 'POST', '/admin/v1/merchants', ADMIN_TOKEN, { name: 'Bench neighbour', plan: 'enterprise' });
  const key = (await api<{ key: string }>(server.baseUrl, 'POST', `/admin/v1/merchants/${merchant.id}/api-keys`, ADMIN_TOKEN, { mode: 'live', scopes: ['*'] })).key;
  await api(server.baseUrl, 'POST', '/v1/products', key, { name: 'Neighbour product', store_product_id: 'neighbour_sku', entitlement_type: 'permanent' });
  const checkPaths: string[] = [];
  for (let index = 0; index < 200; index += 1) {
    await api(server.baseUrl, 'POST', '/v1/entitlements', key, { store_customer_id: `neighbour_${index}`, store_product_id: 'neighbour_sku' });
    checkPaths.push(`/v1/entitlements/check?store_customer_id=neighbour_${index}&store_product_id=neighbour_sku`);
    checkPaths.push(`/v1/entitlements/check?store_customer_id=neighbour_missing_${index}&store_product_id=neighbour_sku`);
  }
  return { key, checkPaths };
}

export interface NeighbourResult {
  adapter: Adapter;
  quiet: ScenarioResult;
  duringBurst: ScenarioResult;
  burst: ScenarioResult;
  /** The neighbour's check p99 during the burst ÷ its quiet p99 (target ≤ 3). */
  p99Ratio: number;
}

/**
 * Merchant B checks at 2 connections, first alone, then while merchant A issues download URLs at
 * 10 connections: one tenant's burst must not stall another (DESIGN §13).
 */
export async function measureNeighbourDuringBurst(
  server: Server,
  context: ScenarioContext,
  neighbour: Neighbour,
  downloadPaths: string[],
): Promise<NeighbourResult> {
  const base = { adapter: context.adapter, size: context.size, warmupSeconds: context.warmupSeconds };
  const quiet = await measure(server, { ...base, scenario: 'other merchant check, quiet' }, { connections: 2, seconds: context.seconds, key: neighbour.key, next: rotating(neighbour.checkPaths) });
  // The burst starts first and outlasts the neighbour's measurement by a second each side.
  const burst = measure(
    server,
    { ...base, scenario: 'download URL burst (merchant A)', warmupSeconds: 0 },
    { connections: 10, seconds: context.seconds + 2, key: context.key, next: rotating(downloadPaths) },
  );
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const duringBurst = await measure(
    server,
    { ...base, scenario: 'other merchant check, during A’s download burst', warmupSeconds: 0 },
    { connections: 2, seconds: context.seconds, key: neighbour.key, next: rotating(neighbour.checkPaths) },
  );
  return { adapter: context.adapter, quiet, duringBurst, burst: await burst, p99Ratio: duringBurst.p99Milliseconds / Math.max(quiet.p99Milliseconds, 0.1) };
}
