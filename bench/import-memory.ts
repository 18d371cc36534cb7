import { createScratchDatabase, residentMegabytes, runScript, Server } from './harness';
import { measureImport } from './imports';
import { seedMerchant } from './seed';

/**
 * Memory of one large import (issue 21 item 6): a fresh server (so its peak resident set, VmHWM,
 * is the import's) takes a CSV of BENCH_IMPORT_ROWS rows (default 100,000) and processes it;
 * reported are the peak RSS and the RSS sampled while the import runs. Target: < 300 MB.
 */
const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);

async function main(): Promise<void> {
  const scratch = await createScratchDatabase('eh_import_memory');
  const server = await Server.start(scratch.url, 'express');
  try {
    const seed = await seedMerchant(server, { products: 2, downloadEntitlements: 0 });
    const idle = residentMegabytes(server.pid, 'VmRSS');
    let sampledPeak = idle;
    const result = await measureImport({
      baseUrl: server.baseUrl,
      apiKey: seed.key,
      storeProductId: 'bench_sku_1',
      rows: ROWS,
      onPoll: () => {
        sampledPeak = Math.max(sampledPeak, residentMegabytes(server.pid, 'VmRSS'));
      },
    });
    const peak = residentMegabytes(server.pid, 'VmHWM');
    process.stdout.write(
      `${JSON.stringify({ idleRssMegabytes: Math.round(idle), peakRssMegabytes: Math.round(peak), sampledPeakRssMegabytes: Math.round(sampledPeak), ...result })}\n`,
    );
  } finally {
    await server.stop();
    await scratch.drop();
  }
}

runScript(main);
