import { cpuMilliseconds, createScratchDatabase, load, measure, residentMegabytes, rotating, runScript, Server } from './harness';
import { seedMerchant } from './seed';

/**
 * `node -r ts-node/register/transpile-only bench/profile-check.ts`: server CPU per request and
 * req/s of the access check, of `/health/live` (the framework's floor) and of the raw `node:http`
 * + `pg` check server (bench/raw-check-server.ts, the machine's limit), alternated for
 * BENCH_ROUNDS rounds (3) over a fixed load, so changes to the check's path can be compared
 * without the whole benchmark and with less noise than req/s alone on a shared machine.
 * BENCH_ADAPTER=fastify for the other adapter; BENCH_SCENARIOS=check (or health, raw) runs those
 * only; BENCH_CONNECTIONS (10) the load's connections; BENCH_SECONDS (10) each run's length;
 * BENCH_RATE (e.g. 1000) adds, after the rounds, a run of each at that fixed, evenly paced rate
 * (bench/paced-load.ts) with its p50 and p99;
 * BENCH_NODE_OPTIONS are passed to the servers (`--cpu-prof --cpu-prof-dir=/tmp/profiles`, then
 * bench/summarize-profile.ts).
 */
async function main(): Promise<void> {
  const scratch = await createScratchDatabase('eh_check');
  const adapter = process.env.BENCH_ADAPTER === 'fastify' ? 'fastify' : 'express';
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const server = await Server.start(scratch.url, adapter, process.env.BENCH_SERVER_ENV ? (JSON.parse(process.env.BENCH_SERVER_ENV) as Record<string, string>) : {});
  let raw: Server | null = null;
  try {
    const seed = await seedMerchant(server, { products: 4, downloadEntitlements: 50 });
    raw = await Server.startRawCheck(scratch.url, seed.merchantId);
    // Hits and misses (the last product is held by nobody), by our ids and by store ids.
    const paths = seed.downloads.flatMap((download, index) =>
      seed.productIds.map((productId, product) =>
        index % 2 === 0
          ? `/v1/entitlements/check?customer_id=${download.customerId}&product_id=${productId}`
          : `/v1/entitlements/check?store_customer_id=bench_download_customer_${index}&store_product_id=bench_sku_${product}`,
      ),
    );
    const scenarios: Array<[string, Server, () => { path: string }, string | undefined]> = [
      ['raw limit', raw, rotating(paths), undefined],
      ['entitlements/check', server, rotating(paths), seed.key],
      ['health/live', server, () => ({ path: '/health/live' }), undefined],
    ];
    const only = process.env.BENCH_SCENARIOS;
    const chosen = scenarios.filter(([name]) => !only || only.split(',').some((wanted) => name.includes(wanted)));
    for (const [, target, next, key] of chosen) await load(target, { connections, seconds: 2, next, key });
    for (let round = 1; round <= rounds; round += 1) {
      const perSecond = new Map<string, number>();
      for (const [name, target, next, key] of chosen) {
        const before = cpuMilliseconds(target.pid);
        const result = await load(target, { connections, seconds, next, key });
        const used = cpuMilliseconds(target.pid) - before;
        const microseconds = Math.round((used * 1000) / result.requests.total);
        perSecond.set(name, result.requests.average);
        process.stdout.write(
          `round ${round} ${adapter} ${name}: ${Math.round(result.requests.average)} req/s, ${microseconds} µs server CPU per request, non-2xx ${result.non2xx}, peak RSS ${Math.round(residentMegabytes(target.pid, 'VmHWM'))} MB\n`,
        );
      }
      const limit = perSecond.get('raw limit');
      const check = perSecond.get('entitlements/check');
      if (limit && check) process.stdout.write(`round ${round} ${adapter} check ÷ limit: ${(check / limit).toFixed(2)}\n`);
    }
    const rate = Number(process.env.BENCH_RATE ?? 0);
    for (const [name, target, next, key] of rate > 0 ? chosen : []) {
      const result = await measure(target, { adapter, size: 0, scenario: name, warmupSeconds: 0 }, { connections, seconds, next, key, overallRate: rate });
      process.stdout.write(
        `${adapter} ${name} at ${rate} req/s, paced: ${result.requestsPerSecond} req/s, p50 ${result.p50Milliseconds} ms, p99 ${result.p99Milliseconds} ms, non-2xx ${result.non2xx}, errors ${result.errors}\n`,
      );
    }
  } finally {
    await raw?.stop();
    await server.stop();
    await scratch.drop();
  }
}

runScript(main);
