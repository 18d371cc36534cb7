import { INestApplication, Module, Type } from '@nestjs/common';
import { rmSync } from 'node:fs';
import request from 'supertest';
import TestAgent from 'supertest/lib/agent';
import { ApiApplication, createApiApplication } from '../../src/app-setup';
import { AppModule } from '../../src/app.module';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import { Plan } from '../../src/auth/merchant.entity';
import { MerchantsService } from '../../src/auth/merchants.service';
import { systemAudit } from '../../src/auth/request-audit';
import type { ApiMode } from '../../src/database/tenant';
import { seedEmbeddedDatabase, testDataDirectory } from './embedded-template';
import { installContract, satisfiesContract } from './openapi-contract';
import { testHttpAdapter } from './test-adapter';

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

export interface TestTenant {
  merchantId: string;
  /** A test-mode key with every scope. */
  testKey: string;
  /** A live-mode key with every scope. */
  liveKey: string;
}

export interface TestApp {
  app: INestApplication;
  /** The HTTP adapter it runs on (TEST_HTTP_ADAPTER). */
  adapter: 'express' | 'fastify';
  /** Every route the HTTP server registered, as `METHOD /path` (automatic HEAD routes aside). */
  servedRoutes: string[];
  http: TestAgent;
  /** The database URL this app uses (its own embedded one, or the run's PostgreSQL database). */
  databaseUrl: string;
  dataDirectory: string;
  createTenant(plan?: Plan): Promise<TestTenant>;
  createKey(merchantId: string, mode: ApiMode, scopes: string[]): Promise<string>;
  close(): Promise<void>;
}

/**
 * Defaults that keep suites from throttling themselves; a suite overrides what it tests. The
 * connection and queue waits are long because suites run in parallel on a shared machine, where a
 * burst queued on the embedded database's one connection can wait longer than the production
 * bounds without anything being wrong (database-faults, tenant-fairness and merchant-admission test
 * those bounds).
 */
const TEST_DEFAULTS: Record<string, string> = {
  RATE_LIMIT_READ_PER_MINUTE: '100000',
  RATE_LIMIT_WRITE_PER_MINUTE: '100000',
  AUTH_FAILURE_LIMIT_PER_MINUTE: '100000',
  DATABASE_ACQUIRE_TIMEOUT: '60s',
  DATABASE_TENANT_QUEUE_TIMEOUT: '60s',
  MERCHANT_REQUEST_QUEUE_TIMEOUT: '60s',
  // Suites that race requests of one merchant (grants, idempotency, downloads) keep their
  // concurrency, as they keep their rate limits; merchant-admission tests the share itself.
  MERCHANT_REQUESTS_IN_FLIGHT: '1000',
  ADMIN_TOKEN: TEST_ADMIN_TOKEN,
  SKIP_DEMO_SEED: 'true',
  LOG_LEVEL: 'silent',
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
};

export interface TestAppOptions {
  /** Test-only modules booted beside the real AppModule (e.g. a controller that declares no scope). */
  imports?: Type[];
}

async function createAppWith(overrides: Record<string, string | undefined>, imports: Type[]): Promise<ApiApplication> {
  if (imports.length === 0) return createApiApplication(overrides);
  @Module({ imports: [AppModule.forRoot(overrides), ...imports] })
  class AppWithTestModules {}
  return createApiApplication(overrides, AppWithTestModules);
}

/**
 * Boots the real AppModule with the real HTTP stack. Against PostgreSQL (TEST_DATABASE_URL) every
 * app of a jest worker shares the worker's database and suites isolate themselves by creating
 * merchants; without it each app gets its own embedded database in a temporary directory, started
 * from a copy of the run's migrated template (embedded-template.ts).
 */
export async function createTestApp(
  overrides: Record<string, string | undefined> = {},
  options: TestAppOptions = {},
): Promise<TestApp> {
  const dataDirectory = testDataDirectory('eh-test-');
  const environment = {
    ...TEST_DEFAULTS,
    HTTP_ADAPTER: testHttpAdapter(),
    DATA_DIR: dataDirectory,
    DATABASE_URL: process.env.EH_TEST_DATABASE_URL,
    ...overrides,
  };
  if (!environment.DATABASE_URL) seedEmbeddedDatabase(environment.DATA_DIR ?? dataDirectory);
  const { app, platform } = await createAppWith(environment, options.imports ?? []);
  await app.init();
  await platform.ready();
  const merchants = app.get(MerchantsService);
  const apiKeys = app.get(ApiKeysService);
  const createKey = async (merchantId: string, mode: ApiMode, scopes: string[]) =>
    (await apiKeys.create(merchantId, { mode, scopes }, systemAudit('test.createKey'))).key;
  const { DatabaseConnection } = await import('../../src/database/database-connection');
  installContract(app);
  return {
    app,
    adapter: platform.name,
    servedRoutes: platform.servedRoutes(app),
    http: withContractCheck(request(app.getHttpServer())),
    databaseUrl: app.get(DatabaseConnection).url,
    dataDirectory,
    createKey,
    async createTenant(plan: Plan = 'free') {
      const merchant = await merchants.create(`Test merchant ${Date.now()}`, plan, systemAudit('test.createTenant'));
      return {
        merchantId: merchant.id,
        testKey: await createKey(merchant.id, 'test', ['*']),
        liveKey: await createKey(merchant.id, 'live', ['*']),
      };
    },
    async close() {
      // Every request of the suite has been answered: drop kept-alive client sockets (fetch's
      // pool) now rather than wait for their keep-alive timeout in the server's close().
      const closing = app.close();
      app.getHttpServer().closeAllConnections();
      await closing;
      rmSync(dataDirectory, { recursive: true, force: true });
    },
  };
}

const HTTP_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options']);

/** Every request made through the agent also checks its response against the OpenAPI document. */
function withContractCheck(agent: TestAgent): TestAgent {
  return new Proxy(agent, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof property === 'string' && HTTP_METHODS.has(property) && typeof value === 'function') {
        return (...args: unknown[]) => (value as (...parameters: unknown[]) => request.Test).apply(target, args).expect(satisfiesContract);
      }
      return value;
    },
  });
}

export const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
