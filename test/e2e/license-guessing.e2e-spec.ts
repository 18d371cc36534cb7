import { randomInt } from 'node:crypto';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { DataSource, Logger, QueryRunner } from 'typeorm';
import { LicenseKeyCipher } from '../../src/license-records/license-key-cipher';
import { CROCKFORD_ALPHABET } from '../../src/license-records/license-key-format';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';

const FAILURE_LIMIT = 10;
const READ_LIMIT = 8;

/**
 * The app routes' credential is the license key (DESIGN §18, §13): unknown keys count per client
 * address, and a spray of random keys costs the database nothing: a malformed key or one whose
 * checksum fails is refused without a statement, a plausible unknown one is looked up once and then
 * remembered. Counted from every statement TypeORM sends while a request is handled, as in
 * create-round-trips. A known key is never refused for the address's failures, and has a budget
 * of its own.
 */
describe('license keys under guessing', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let statements: string[] | null = null;
  const insideRequest = new AsyncLocalStorage<true>();

  beforeAll(async () => {
    testApp = await createTestApp({ AUTH_FAILURE_LIMIT_PER_MINUTE: String(FAILURE_LIMIT), RATE_LIMIT_READ_PER_MINUTE: String(READ_LIMIT) });
    tenant = await testApp.createTenant('free');
    const server = testApp.app.getHttpServer() as Server;
    for (const listener of server.listeners('request') as Array<(request: IncomingMessage, response: ServerResponse) => void>) {
      server.off('request', listener);
      server.on('request', (request: IncomingMessage, response: ServerResponse) => insideRequest.run(true, () => listener.call(server, request, response)));
    }
    const logger: Logger = testApp.app.get(DataSource).logger;
    const logQuery = logger.logQuery.bind(logger);
    const background = /webhook_claim_deliveries|pg_advisory_xact_lock|webhook_delivery_attempts/i;
    logger.logQuery = (query: string, parameters?: unknown[], queryRunner?: QueryRunner) => {
      if (statements && insideRequest.getStore() && !background.test(query)) statements.push(query);
      return logQuery(query, parameters, queryRunner);
    };
  });
  afterAll(() => testApp.close());

  async function counted(send: () => Promise<void>): Promise<string[]> {
    statements = [];
    try {
      await send();
      return statements;
    } finally {
      statements = null;
    }
  }

  async function issuedKey(storeCustomerId: string): Promise<string> {
    const http = testApp.http;
    const product = await http.post('/v1/products').set(bearer(tenant.testKey)).send({ name: 'App', entitlement_type: 'permanent', license: { activation_limit: 2 } }).expect(201);
    const entitlement = await http.post('/v1/entitlements').set(bearer(tenant.testKey)).send({ store_customer_id: storeCustomerId, product_id: product.body.data.id }).expect(201);
    const keys = await http.get(`/v1/license-keys?entitlement_id=${entitlement.body.data.id}`).set(bearer(tenant.testKey)).expect(200);
    return keys.body.data[0].key as string;
  }

  const randomKey = () => Array.from({ length: 25 }, () => CROCKFORD_ALPHABET[randomInt(CROCKFORD_ALPHABET.length)]).join('');
  const validate = (key: string) => testApp.http.post('/v1/licenses/validate').send({ key });

  it('costs the database nothing for a spray of random keys, and still answers a known key from the blocked address', async () => {
    const known = await issuedKey('buyer_sprayed');

    const malformed = Array.from({ length: 3 * FAILURE_LIMIT }, (_, index) => `not-a-key-${index}`);
    let statuses: number[] = [];
    const malformedStatements = await counted(async () => {
      for (const key of malformed) statuses.push((await validate(key)).status);
    });
    expect(malformedStatements).toEqual([]);
    expect(statuses.slice(0, FAILURE_LIMIT).every((status) => status === 404)).toBe(true);
    expect(statuses.slice(FAILURE_LIMIT + 1).every((status) => status === 429)).toBe(true);

    // Well-formed random keys: only those whose checksum happens to hold (1 in 32) reach the database, once each.
    const cipher = testApp.app.get(LicenseKeyCipher, { strict: false });
    const spray = Array.from({ length: 200 }, randomKey);
    const plausible = spray.filter((key) => cipher.read(key).plausible);
    statuses = [];
    const sprayStatements = await counted(async () => {
      for (const key of spray) statuses.push((await validate(key)).status);
    });
    expect(statuses.every((status) => status === 429)).toBe(true);
    expect(sprayStatements).toHaveLength(plausible.length);
    expect(plausible.length).toBeLessThan(30);
    // The same spray again: the plausible ones are remembered as unknown.
    expect(await counted(async () => {
      for (const key of spray) await validate(key).expect(429);
    })).toEqual([]);

    // A known key is never refused because of its address's failures.
    const answer = await validate(known).expect(200);
    expect(answer.body.data.code).toBe('VALID');
  });

  it('limits each key to its own budget', async () => {
    const first = await issuedKey('buyer_budget_1');
    const second = await issuedKey('buyer_budget_2');
    for (let index = 0; index < READ_LIMIT; index += 1) {
      const answer = await validate(first).expect(200);
      expect(answer.headers['x-ratelimit-limit']).toBe(String(READ_LIMIT));
    }
    const limited = await validate(first).expect(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    await validate(second).expect(200);
  });
});
