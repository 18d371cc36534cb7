import type { Config } from '@jest/types';
import Redis from 'ioredis';
import { Client } from 'pg';
import { prepareEmbeddedTemplate } from './embedded-template';
import { prepareBuilds } from './prepare-builds';
import { workerDatabaseVariable } from './worker-database';

/**
 * Once per run, before any suite: builds what suites need (the dashboard) if it is missing or
 * stale, so `npm test` needs nothing run before it. Then the databases:
 * - with TEST_DATABASE_URL (or DATABASE_URL), one database per jest worker on that server, created
 *   here and dropped after, so concurrent runs never collide and suites in parallel workers never
 *   see each other's background work (sweeps, webhook claims, imports run across tenants);
 * - without, every test app gets its own embedded database, started from a copy of one migrated
 *   template (see embedded-template.ts).
 */
export default async function globalSetup(globalConfig: Config.GlobalConfig): Promise<void> {
  prepareBuilds();
  await probeRedis();
  const serverUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  if (!serverUrl) {
    await prepareEmbeddedTemplate();
    return;
  }
  const run = `eh_test_${process.pid}_${Date.now().toString(36)}`;
  const workers = Math.max(1, globalConfig.maxWorkers);
  process.env.EH_TEST_SERVER_URL = serverUrl;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  const names: string[] = [];
  try {
    for (let worker = 1; worker <= workers; worker += 1) {
      const name = `${run}_${worker}`;
      await admin.query(`CREATE DATABASE "${name}"`);
      names.push(name);
      process.env.EH_TEST_DATABASE_NAMES = names.join(',');
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      process.env[workerDatabaseVariable(worker)] = url.toString();
    }
  } finally {
    await admin.end();
  }
}

/** Suites needing Redis (requirements.ts) run when it answers: REDIS_TEST_URL, else the usual local one. */
async function probeRedis(): Promise<void> {
  const url = process.env.REDIS_TEST_URL || 'redis://127.0.0.1:6379';
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1_000, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    if ((await client.ping()) === 'PONG') process.env.EH_TEST_REDIS_URL = url;
  } catch {
    // Not there: the suites that need it say so and skip (or fail under CI).
  } finally {
    client.disconnect();
  }
}
