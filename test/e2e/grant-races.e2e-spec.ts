import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { FastPaths } from '../../src/database/fast-paths';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';
import { untilBlocked } from '../support/until-blocked';

/**
 * Issue 38, item 3: a grant that races the delete of its customer's test clock, or the archive of
 * its product. Each race is forced: the test holds the other write open in a transaction of its
 * own, sends the grant, sees it wait (untilBlocked: it must wait, a grant that went through an
 * archive still uncommitted would answer 201 at once), then commits. Held twenty times per path,
 * and the clock's race also run freely, twenty pairs at once.
 */
describe('grants racing a clock delete or a product archive', () => {
  let testApp: TestApp;
  let tenant: TestTenant;

  beforeAll(async () => {
    testApp = await createTestApp();
    tenant = await testApp.createTenant('growth');
  });
  afterAll(async () => {
    testApp.app.get(FastPaths).enabled = true;
    await testApp.close();
  });

  const key = () => bearer(tenant.testKey);
  const grant = (body: Record<string, unknown>) => testApp.http.post('/v1/entitlements').set(key()).send(body);

  async function product(storeId: string): Promise<string> {
    const body = { name: storeId, store_product_id: storeId, entitlement_type: 'permanent', fulfillment_config: { delivery_method: 'URL', access_url: 'https://example.com/a' } };
    return (await testApp.http.post('/v1/products').set(key()).send(body).expect(201)).body.data.id;
  }

  async function clock(): Promise<string> {
    return (await testApp.http.post('/v1/test-clocks').set(key()).send({ frozen_time: '2030-01-01T00:00:00.000Z' }).expect(201)).body.data.id;
  }

  /** Runs `statement` in a transaction the test holds, sends `request` while it is open, and commits once the request waits on it. */
  async function heldWhile(statement: string, parameters: unknown[], request: () => Promise<Response>): Promise<Response> {
    const runner = testApp.app.get(DataSource).createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      await runner.query(statement, parameters);
      // supertest sends on then(): start it now, so that it runs while the test's write is held.
      const answer = request().then((response) => response);
      // Fails here (after 15 s) if the grant never waits: it went past the write the test holds.
      await untilBlocked(testApp, tenant.merchantId).catch(async (error: unknown) => {
        const early = await Promise.race([answer.then((response) => `answered ${response.status} without waiting`), new Promise((resolve) => setTimeout(resolve, 10, null))]);
        throw early ? new Error(String(early)) : error;
      });
      await runner.commitTransaction();
      return await answer;
    } finally {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      await runner.release();
    }
  }

  it.each([
    ['the combined path', true],
    ['the transaction path', false],
  ])('a grant that commits after its product was archived is refused (%s), 20 held pairs', async (_name, fast) => {
    testApp.app.get(FastPaths).enabled = fast;
    try {
      for (let pair = 0; pair < 20; pair += 1) {
        const productId = await product(`sku_archived_${fast ? 'fast' : 'slow'}_${pair}`);
        const answer = await heldWhile(`UPDATE products SET status = 'archived' WHERE id = $1`, [productId], () => grant({ store_customer_id: `c_archive_${pair}`, product_id: productId }));
        expect({ pair, status: answer.status, code: answer.body.error?.code }).toEqual({ pair, status: 409, code: 'PRODUCT_ARCHIVED' });
        const held = await testApp.app.get(DataSource).query(`SELECT count(*)::int AS count FROM entitlements WHERE product_id = $1`, [productId]);
        expect(held[0].count).toBe(0);
      }
    } finally {
      testApp.app.get(FastPaths).enabled = true;
    }
  });

  it('a grant to a new customer on a clock whose delete commits first is 404 TEST_CLOCK_NOT_FOUND, never 500 (20 held pairs)', async () => {
    for (let pair = 0; pair < 20; pair += 1) {
      const productId = await product(`sku_clock_held_${pair}`);
      const clockId = await clock();
      const answer = await heldWhile(`DELETE FROM test_clocks WHERE id = $1`, [clockId], () => grant({ store_customer_id: `c_clock_held_${pair}`, product_id: productId, test_clock: clockId }));
      expect({ pair, status: answer.status, code: answer.body.error?.code }).toEqual({ pair, status: 404, code: 'TEST_CLOCK_NOT_FOUND' });
    }
  });

  it('grants racing their clock delete freely (20 clocks, 3 grants each) each succeed or answer 404, never 500', async () => {
    const productId = await product('sku_clock_free');
    const clocks = await Promise.all(Array.from({ length: 20 }, () => clock()));
    const answers = await Promise.all(
      clocks.flatMap((clockId, index) => [
        ...[0, 1, 2].map((grantIndex) => grant({ store_customer_id: `c_free_${index}_${grantIndex}`, product_id: productId, test_clock: clockId }).then((response) => ({ kind: 'grant', response }))),
        testApp.http.delete(`/v1/test-clocks/${clockId}`).set(key()).then((response) => ({ kind: 'delete', response })),
      ]),
    );
    for (const { kind, response } of answers) {
      if (kind === 'delete') expect(response.status).toBe(200);
      else expect([201, 404]).toContain(response.status);
      if (response.status === 404) expect(response.body.error.code).toBe('TEST_CLOCK_NOT_FOUND');
    }
    // Whatever was granted went with its clock.
    const left = await testApp.app.get(DataSource).query(`SELECT count(*)::int AS count FROM entitlements WHERE test_clock_id = ANY($1)`, [clocks]);
    expect(left[0].count).toBe(0);
  });
});
