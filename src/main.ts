import 'reflect-metadata';
import { ModuleRef } from '@nestjs/core';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { createApp } from './app-setup';
import { DemoMerchantSeeder } from './auth/demo-merchant.seeder';
import { AppConfig } from './config/app-config';
import { validateEnvironment } from './config/config.schema';
import { DemoCatalogueSeeder } from './demo/demo-catalogue.seeder';
import { DASHBOARD_PATH, ObservabilityListeners, startupSummary } from './logging/startup-summary';
import { MetricsServer } from './observability/metrics-server';
import { tracesUrl } from './observability/traces-url';

/** The dashboard's path when a module provides DASHBOARD_PATH, else null (no dashboard in this build). */
function dashboardPath(app: Awaited<ReturnType<typeof createApp>>): string | null {
  // Through ModuleRef: the application's own get() treats a missing provider as fatal.
  try {
    return app.get(ModuleRef).get<string>(DASHBOARD_PATH, { strict: false });
  } catch {
    return null;
  }
}

/**
 * The demo merchant's catalogue, which the docs' examples name. A failure here must not lose the
 * key, which is shown only once: it is reported and the start goes on.
 */
async function seedDemoCatalogue(app: Awaited<ReturnType<typeof createApp>>, merchantId: string): Promise<string[] | null> {
  try {
    return await app.get(DemoCatalogueSeeder).seed({ merchantId, mode: 'test' });
  } catch (error) {
    process.stderr.write(`The demo catalogue was not created: ${error instanceof Error ? error.message : String(error)}\n`);
    return null;
  }
}

/** The metrics listener as bound (its real port when METRICS_PORT=0) and where traces go, each when on. */
function observabilityListeners(app: Awaited<ReturnType<typeof createApp>>, config: AppConfig): ObservabilityListeners {
  const port = config.metrics ? app.get(MetricsServer, { strict: false }).port : null;
  const metrics = config.metrics && port !== null ? { host: config.metrics.host, port } : null;
  return { metrics, tracesUrl: config.tracesEndpoint === null ? null : tracesUrl(config.tracesEndpoint) };
}

async function bootstrap(): Promise<void> {
  const startConfig = new AppConfig(validateEnvironment(process.env));
  if (startConfig.embeddedDatabase && !existsSync(path.join(startConfig.dataDirectory, 'pg'))) {
    // PGlite's first initdb takes seconds: say why nothing else appears meanwhile.
    process.stdout.write(`First start: creating the embedded database in ${path.join(startConfig.dataDirectory, 'pg')} (a few seconds)…\n`);
  }
  const app = await createApp();
  const config = app.get(AppConfig);
  await app.listen(config.port, config.host);
  // Only once the port is ours: a start that fails on a busy port leaves the demo merchant to the next one, key and all.
  const demo = await app.get(DemoMerchantSeeder).seed();
  const catalogue = demo ? await seedDemoCatalogue(app, demo.merchantId) : null;
  process.stdout.write(startupSummary(config, { dashboardPath: dashboardPath(app), demo, catalogue, observability: observabilityListeners(app, config) }));
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
