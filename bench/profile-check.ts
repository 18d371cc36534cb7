import { readFileSync } from 'node:fs';
import { createScratchDatabase, load, residentMegabytes, rotating, runScript, Server } from './harness';
import { seedMerchant } from './seed';

const CLOCK_TICKS_PER_SECOND = 100;

/** User + system CPU time the process has used so far, in milliseconds (/proc/<pid>/stat). */
function cpuMilliseconds(pid: number): number {
  // Fields after the command name (which may hold spaces) start at state; utime and stime are 14th and 15th overall.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/**
 * `node -r ts-node/register/transpile-only bench/profile-check.ts`: server CPU per request of the
 * access check and of `/health/live` (the framework's floor), measured from /proc over a fixed
 * load, so changes to the check's path can be compared without the whole benchmark and with less
 * noise than req/s on a shared machine. BENCH_ADAPTER=fastify for the other adapter;
 * BENCH_SCENARIOS=check (or health) runs one of the two; BENCH_CONNECTIONS (10) the load's connections;
 * BENCH_NODE_OPTIONS are passed to the server (`--cpu-prof --cpu-prof-dir=/tmp/profiles`, then
 * bench/summarize-profile.ts).
 */
async function main(): Promise<void> {
  const scratch = await createScratchDatabase('eh_check');
  const adapter = process.env.BENCH_ADAPTER === 'fastify' ? 'fastify' : 'express';
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
  const server = await Server.start(scratch.url, adapter);
  try {
    const seed = await seedMerchant(server, { products: 4, downloadEntitlements: 50 });
    // Hits and misses (the last product is held by nobody), by our ids and by store ids.
    const paths = seed.downloads.flatMap((download, index) =>
      seed.productIds.map((productId, product) =>
        index % 2 === 0
          ? `/v1/entitlements/check?customer_id=${download.customerId}&product_id=${productId}`
          : `/v1/entitlements/check?store_customer_id=bench_download_customer_${index}&store_product_id=bench_sku_${product}`,
      ),
    );
    const scenarios: Array<[string, () => { path: string }, string | undefined]> = [
      ['health/live', () => ({ path: '/health/live' }), undefined],
      ['entitlements/check', rotating(paths), seed.key],
    ];
    // BENCH_SCENARIOS=check profiles the check alone.
    const only = process.env.BENCH_SCENARIOS;
    for (const [name, next, key] of scenarios.filter(([name]) => !only || name.includes(only))) {
      await load(server, { connections, seconds: 2, next, key });
      const before = cpuMilliseconds(server.pid);
      const result = await load(server, { connections, seconds, next, key });
      const used = cpuMilliseconds(server.pid) - before;
      const requests = result.requests.total;
      const microseconds = Math.round((used * 1000) / requests);
      process.stdout.write(`${adapter} ${name}: ${Math.round(result.requests.average)} req/s, ${microseconds} µs server CPU per request, non-2xx ${result.non2xx}, peak RSS ${residentMegabytes(server.pid, 'VmHWM')} MB\n`);
    }
  } finally {
    await server.stop();
    await scratch.drop();
  }
}

runScript(main);
