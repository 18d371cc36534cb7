import { DataSource } from 'typeorm';
import type { ApiMode } from '../../src/database/tenant';
import { Clock } from '../../src/clock/clock';
import { generateId } from '../../src/ids/id';
import { ProductEntity } from '../../src/products/product.entity';
import { bearer, createTestApp, TestApp, TestTenant } from './test-app';

/** Settings for suites that move time themselves: the background sweep never fires during a run. */
export const ENTITLEMENT_TEST_OVERRIDES = { EXPIRY_SWEEP_INTERVAL: '1h' };

/** Inserts a product row directly (the products write API is tested elsewhere). */
export async function insertProduct(
  testApp: TestApp,
  merchantId: string,
  mode: ApiMode,
  overrides: Partial<ProductEntity> = {},
): Promise<ProductEntity> {
  const manager = testApp.app.get(DataSource).manager;
  const id = generateId('prod');
  return manager.save(
    ProductEntity,
    manager.create(ProductEntity, {
      id,
      merchant_id: merchantId,
      mode,
      name: `Product ${id}`,
      store_product_id: `sku_${id}`,
      entitlement_type: 'permanent',
      fulfillment_config: { delivery_method: 'URL', access_url: 'https://example.com/a', access_instructions: null },
      ...overrides,
    }),
  );
}

/**
 * Controls the app's Clock: `set` pins it, `advance` moves it; time never passes on its own while
 * controlled, so expiry tests need no sleeping.
 */
export interface ControlledClock {
  now(): Date;
  set(at: Date): void;
  advance(milliseconds: number): void;
  release(): void;
}

export function controlClock(testApp: TestApp, start = new Date()): ControlledClock {
  const clock = testApp.app.get(Clock);
  let current = new Date(start.getTime());
  const spy = jest.spyOn(clock, 'now').mockImplementation(() => new Date(current.getTime()));
  return {
    now: () => new Date(current.getTime()),
    set: (at) => {
      current = new Date(at.getTime());
    },
    advance: (milliseconds) => {
      current = new Date(current.getTime() + milliseconds);
    },
    release: () => spy.mockRestore(),
  };
}

export async function countEvents(testApp: TestApp, type: string, entitlementId: string): Promise<number> {
  const rows: { count: string }[] = await testApp.app
    .get(DataSource)
    .query(`SELECT count(*)::text AS count FROM events WHERE type = $1 AND data->'object'->>'id' = $2`, [type, entitlementId]);
  return Number(rows[0].count);
}

export async function grant(testApp: TestApp, key: string, body: Record<string, unknown>): Promise<Record<string, unknown> & { id: string }> {
  const response = await testApp.http.post('/v1/entitlements').set(bearer(key)).send(body);
  if (response.status !== 201) throw new Error(`grant failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data;
}

export interface EntitlementSuite {
  testApp: TestApp;
  tenant: TestTenant;
  product: ProductEntity;
  clock: ControlledClock;
}

/**
 * The set-up the entitlement suites share, as jest hooks: an app whose sweeper never fires on
 * its own, one tenant, one product, and a controlled clock, fresh for each test or one for the
 * whole suite. Read the fields inside hooks and tests (they are set by beforeAll).
 */
export function entitlementSuite(clockPer: 'test' | 'suite'): EntitlementSuite {
  const suite = {} as EntitlementSuite;
  beforeAll(async () => {
    suite.testApp = await createTestApp(ENTITLEMENT_TEST_OVERRIDES);
    suite.tenant = await suite.testApp.createTenant();
    suite.product = await insertProduct(suite.testApp, suite.tenant.merchantId, 'test');
    if (clockPer === 'suite') suite.clock = controlClock(suite.testApp);
  });
  if (clockPer === 'test') {
    beforeEach(() => {
      suite.clock = controlClock(suite.testApp);
    });
    afterEach(() => suite.clock.release());
  }
  afterAll(async () => {
    if (clockPer === 'suite') suite.clock.release();
    await suite.testApp.close();
  });
  return suite;
}
