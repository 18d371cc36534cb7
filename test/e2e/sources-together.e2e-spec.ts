import { entitlementSuite, insertProduct } from '../support/entitlement-fixtures';
import { eventually } from '../support/eventually';
import { bearer } from '../support/test-app';

/**
 * Bundles and grant rules live inside the lifecycle's grant (DESIGN §10), so every source gets
 * them. The orders suite covers orders; this one covers the sources built beside them.
 */
describe('every source gets bundles and grant rules', () => {
  const suite = entitlementSuite('suite');
  const http = () => suite.testApp.http;
  const key = () => bearer(suite.tenant.testKey);
  const run = Date.now().toString(36);

  /** The customer's entitlements, each read whole (list items leave parent_entitlement_id out). */
  async function entitlementsOf(storeCustomerId: string): Promise<Array<{ id: string; product_id: string; source: string; status: string; parent_entitlement_id: string | null }>> {
    const response = await http().get(`/v1/entitlements?store_customer_id=${storeCustomerId}&limit=100`).set(key()).expect(200);
    const ids: string[] = response.body.data.map((item: { id: string }) => item.id);
    return Promise.all(ids.map(async (id) => (await http().get(`/v1/entitlements/${id}`).set(key()).expect(200)).body.data));
  }

  it('a rule fires for a subscription grant, and a subscribed bundle grants its children', async () => {
    const included = await insertProduct(suite.testApp, suite.tenant.merchantId, 'test');
    const bonus = await insertProduct(suite.testApp, suite.tenant.merchantId, 'test');
    const plan = await insertProduct(suite.testApp, suite.tenant.merchantId, 'test', { entitlement_type: 'subscription_linked' });
    await http().patch(`/v1/products/${plan.id}`).set(key()).send({ included_product_ids: [included.id] }).expect(200);
    await http().post('/v1/grant-rules').set(key()).send({ trigger_product_id: plan.id, grant_product_id: bonus.id }).expect(201);

    const customer = `${run}_subscriber`;
    await http().put(`/v1/subscriptions/store/${run}_sub`).set(key()).send({ store_customer_id: customer, product_id: plan.id, status: 'active' }).expect(201);
    const held = await entitlementsOf(customer);
    const parent = held.find((entitlement) => entitlement.product_id === plan.id);
    expect(parent).toMatchObject({ source: 'subscription', status: 'active' });
    expect(held.find((entitlement) => entitlement.product_id === included.id)).toMatchObject({ source: 'bundle', parent_entitlement_id: parent?.id, status: 'active' });
    expect(held.find((entitlement) => entitlement.product_id === bonus.id)).toMatchObject({ source: 'rule', parent_entitlement_id: null, status: 'active' });

    // Pausing the subscription suspends the parent and its child; the rule's grant is independent.
    await http().put(`/v1/subscriptions/store/${run}_sub`).set(key()).send({ status: 'paused' }).expect(200);
    const paused = await entitlementsOf(customer);
    expect(paused.find((entitlement) => entitlement.product_id === plan.id)?.status).toBe('suspended');
    expect(paused.find((entitlement) => entitlement.product_id === included.id)?.status).toBe('suspended');
    expect(paused.find((entitlement) => entitlement.product_id === bonus.id)?.status).toBe('active');

    // Canceling expires both, through the one expiry path.
    await http().put(`/v1/subscriptions/store/${run}_sub`).set(key()).send({ status: 'canceled' }).expect(200);
    const canceled = await entitlementsOf(customer);
    expect(canceled.find((entitlement) => entitlement.product_id === plan.id)?.status).toBe('expired');
    expect(canceled.find((entitlement) => entitlement.product_id === included.id)?.status).toBe('expired');
  });

  it('a rule fires for an import grant, and an imported bundle grants its children', async () => {
    const included = await insertProduct(suite.testApp, suite.tenant.merchantId, 'test');
    const bonus = await insertProduct(suite.testApp, suite.tenant.merchantId, 'test');
    const bundle = await insertProduct(suite.testApp, suite.tenant.merchantId, 'test');
    await http().patch(`/v1/products/${bundle.id}`).set(key()).send({ included_product_ids: [included.id] }).expect(200);
    await http().post('/v1/grant-rules').set(key()).send({ trigger_product_id: bundle.id, grant_product_id: bonus.id }).expect(201);

    const customer = `${run}_imported`;
    const created = await http().post('/v1/entitlement-imports').set(key()).send({ rows: [{ store_customer_id: customer, product_id: bundle.id }] }).expect(202);
    await eventually(async () => {
      const progress = await http().get(`/v1/entitlement-imports/${created.body.data.id}`).set(key()).expect(200);
      return progress.body.data.status === 'completed';
    }, 30_000);
    const held = await entitlementsOf(customer);
    const parent = held.find((entitlement) => entitlement.product_id === bundle.id);
    expect(parent).toMatchObject({ source: 'import', status: 'active' });
    expect(held.find((entitlement) => entitlement.product_id === included.id)).toMatchObject({ source: 'bundle', parent_entitlement_id: parent?.id });
    expect(held.find((entitlement) => entitlement.product_id === bonus.id)).toMatchObject({ source: 'rule', parent_entitlement_id: null });
    expect(held).toHaveLength(3);
  });
});
