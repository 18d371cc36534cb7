import { DataSource } from 'typeorm';
import { ENTITLEMENT_TEST_OVERRIDES, grant, insertProduct } from '../support/entitlement-fixtures';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';

const PAIRS = 20;

/**
 * The bundle graph under concurrency (DESIGN §10, §13): two PATCHes that each pass the rules alone
 * but together would store a cycle or a nested bundle. Every product a change touches is locked in
 * id order before the rules are checked, so one of the two waits, sees the other's bundle and is
 * refused: never a 500 (deadlock), never a nested bundle whose grant leaves out what it nests.
 */
describe('bundle changes that race (DESIGN §13: several rows locked in one order)', () => {
  let testApp: TestApp;
  let tenant: TestTenant;

  beforeAll(async () => {
    testApp = await createTestApp(ENTITLEMENT_TEST_OVERRIDES);
    tenant = await testApp.createTenant();
  });
  afterAll(() => testApp.close());

  const patchIncluded = (productId: string, includedIds: string[]) =>
    testApp.http.patch(`/v1/products/${productId}`).set(bearer(tenant.testKey)).send({ included_product_ids: includedIds });

  async function plainProducts(count: number): Promise<string[]> {
    const products = [];
    for (let index = 0; index < count; index += 1) products.push((await insertProduct(testApp, tenant.merchantId, 'test')).id);
    return products;
  }

  /** Bundle items whose bundle is itself included somewhere: what a single request is refused. */
  async function nestedItems(productIds: string[]): Promise<unknown[]> {
    return testApp.app.get(DataSource).query(
      `SELECT outer_item.bundle_product_id, outer_item.included_product_id AS nested_bundle
         FROM product_bundle_items outer_item
         JOIN product_bundle_items inner_item ON inner_item.bundle_product_id = outer_item.included_product_id
        WHERE outer_item.bundle_product_id = ANY($1)`,
      [productIds],
    );
  }

  /** Grants each bundle among these products and checks the grant includes every product the bundle holds. */
  async function expectEveryGrantComplete(productIds: string[], customer: string): Promise<void> {
    for (const productId of productIds) {
      const read = await testApp.http.get(`/v1/products/${productId}`).set(bearer(tenant.testKey)).expect(200);
      const included: string[] = read.body.data.included_product_ids;
      if (included.length === 0) continue;
      const parent = await grant(testApp, tenant.testKey, { store_customer_id: customer, product_id: productId });
      const granted: Array<{ product_id: string }> = await testApp.app
        .get(DataSource)
        .query(`SELECT product_id FROM entitlements WHERE parent_entitlement_id = $1`, [parent.id]);
      expect(granted.map((row) => row.product_id).sort()).toEqual([...included].sort());
    }
  }

  it(`X includes Y racing Y includes X (${PAIRS} pairs): one succeeds, the other is a 400, never a 500 or a cycle`, async () => {
    const statuses: number[][] = [];
    const touched: string[] = [];
    for (let pair = 0; pair < PAIRS; pair += 1) {
      const [x, y] = await plainProducts(2);
      touched.push(x, y);
      const responses = await Promise.all([patchIncluded(x, [y]), patchIncluded(y, [x])]);
      statuses.push(responses.map((response) => response.status).sort());
      for (const response of responses.filter((each) => each.status === 400)) {
        expect(response.body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'included_product_ids' });
      }
    }
    expect(statuses).toEqual(Array.from({ length: PAIRS }, () => [200, 400]));
    expect(await nestedItems(touched)).toEqual([]);
    await expectEveryGrantComplete(touched, 'race_cycle_buyer');
  });

  it(`P includes Q racing Q includes R (${PAIRS} pairs): no nested bundle is stored, every grant is complete`, async () => {
    const statuses: number[][] = [];
    const touched: string[] = [];
    for (let pair = 0; pair < PAIRS; pair += 1) {
      const [p, q, r] = await plainProducts(3);
      touched.push(p, q, r);
      const responses = await Promise.all([patchIncluded(p, [q]), patchIncluded(q, [r])]);
      statuses.push(responses.map((response) => response.status).sort());
      for (const response of responses.filter((each) => each.status === 400)) {
        expect(response.body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'included_product_ids' });
      }
    }
    expect(statuses).toEqual(Array.from({ length: PAIRS }, () => [200, 400]));
    expect(await nestedItems(touched)).toEqual([]);
    await expectEveryGrantComplete(touched, 'race_chain_buyer');
  });
});
