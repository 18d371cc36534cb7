import type { Response } from 'supertest';
import { describeResponse } from './error-envelope';
import type { ApiOperation } from './openapi-operations';
import { bearer, TEST_ADMIN_TOKEN, TestApp, TestTenant } from './test-app';

/*
 * Valid requests for the suites that spoil them one part at a time (contract fuzzing, the walk of
 * every string): a valid body and query per operation, and real resources of a merchant to name.
 */

/** Port 9 (discard) on loopback: nothing listens, so a delivery fails without leaving the machine. */
export const LOOPBACK_WEBHOOK_URL = 'http://127.0.0.1:9/fuzz';

/**
 * A valid body per operation (with the owner's ids), which the generator spoils one field at a
 * time so hostile values reach the services. An operation missing here is fuzzed from its schema.
 */
export function validBodies(ids: Record<string, string>): Record<string, Record<string, unknown>> {
  return {
    'POST /admin/v1/merchants': { name: 'Fuzzed merchant', plan: 'free' },
    'PATCH /admin/v1/merchants/{merchant_id}': { name: 'Renamed', plan: 'pro' },
    'POST /admin/v1/merchants/{merchant_id}/api-keys': { mode: 'test', scopes: ['products:read'], name: 'fuzz' },
    'POST /admin/v1/merchants/{merchant_id}/users': { email: 'fuzzed-user@example.com', role: 'viewer' },
    'POST /v1/products': {
      name: 'Fuzzed product',
      entitlement_type: 'permanent',
      description: 'd',
      store_product_id: 'sku_fuzzed',
      store_variant_ids: ['v1'],
      metadata: { a: 1 },
      fulfillment_config: { delivery_method: 'URL', access_url: 'https://example.com/a' },
    },
    'PATCH /v1/products/{product_id}': { name: 'Renamed product', description: 'd', metadata: { a: 1 }, store_variant_ids: ['v2'] },
    'POST /v1/entitlements': { store_customer_id: 'fuzzed_customer', product_id: ids.product_id, store_order_id: 'o1', store_line_item_id: 'l1', metadata: { a: 1 } },
    'PATCH /v1/entitlements/{entitlement_id}': { metadata: { a: 1 }, usage_limit: 10 },
    'POST /v1/entitlements/{entitlement_id}/revoke': { reason: 'fuzz' },
    'POST /v1/entitlements/{entitlement_id}/suspend': { reason: 'fuzz' },
    'POST /v1/entitlements/{entitlement_id}/reactivate': {},
    'POST /v1/entitlements/{entitlement_id}/usage': { quantity: 1 },
    'POST /v1/files/upload-url': { file_name: 'fuzzed.pdf', file_size: 1000, mime_type: 'application/pdf', product_id: ids.file_product_id },
    'POST /v1/events/{event_id}/redeliver': {},
    'POST /v1/webhook-endpoints': { url: LOOPBACK_WEBHOOK_URL, enabled_events: ['*'], description: 'fuzz' },
    'PATCH /v1/webhook-endpoints/{endpoint_id}': { description: 'fuzz', enabled_events: ['entitlement.created'] },
    'POST /v1/grant-rules': { trigger_product_id: ids.product_id, grant_product_id: ids.file_product_id },
    'POST /v1/orders': {
      store_order_id: 'fuzz_order_2',
      store_customer_id: 'fuzz_customer',
      placed_at: '2026-01-01T00:00:00Z',
      metadata: { a: 1 },
      line_items: [{ store_line_item_id: 'li_1', product_id: ids.product_id }],
    },
    'POST /v1/orders/{order_id}/refund': { store_line_item_ids: ['li_1'], reason: 'fuzz' },
    'POST /v1/test-clocks': { frozen_time: '2027-01-01T00:00:00Z', name: 'fuzz' },
    'PATCH /v1/license-keys/{license_key_id}': { activation_limit: 50 },
    'POST /v1/licenses/validate': { key: ids.license_key, fingerprint: 'fuzz-machine' },
    'POST /v1/licenses/activate': { key: ids.license_key, fingerprint: 'fuzz-machine', name: 'Fuzz machine', metadata: { a: 1 } },
    'POST /v1/licenses/deactivate': { key: ids.license_key, fingerprint: 'fuzz-machine' },
    'POST /v1/licenses/heartbeat': { key: ids.license_key, fingerprint: 'fuzz-machine' },
    'POST /v1/test-clocks/{test_clock_id}/advance': { frozen_time: '2027-02-01T00:00:00Z' },
    'POST /v1/portal-sessions': { store_customer_id: 'fuzz_customer', return_url: 'https://shop.example.com/account' },
    'PATCH /v1/portal-settings': { display_name: 'Fuzz shop', accent_color: '#0a7d45', logo_url: 'https://shop.example.com/logo.png', support_url: 'https://shop.example.com/help' },
    'PUT /v1/subscriptions/store/{store_subscription_id}': {
      store_customer_id: 'fuzz_customer',
      product_id: ids.subscription_product_id,
      status: 'active',
      current_period_end: '2030-01-01T00:00:00Z',
      store_updated_at: '2026-01-01T00:00:00Z',
    },
  };
}

/** A valid query per read that needs one, spoiled one parameter at a time like the bodies. */
export function validQueries(ids: Record<string, string>): Record<string, Record<string, string>> {
  const queries: Record<string, Record<string, string>> = {
    'GET /v1/entitlements/check': { store_customer_id: ids.store_customer_id, product_id: ids.product_id },
    'GET /v1/entitlements': { customer_id: ids.customer_id, status: 'active', limit: '10' },
    'GET /v1/events': { type: 'entitlement.created', created_after: '2020-01-01T00:00:00Z', limit: '5' },
    'GET /v1/audit-log': { action: 'entitlements.create', created_after: '2020-01-01T00:00:00Z', limit: '5' },
    'GET /v1/files/{file_id}/download': { entitlement_id: ids.entitlement_id, customer_id: ids.customer_id },
    'GET /v1/orders': { store_customer_id: ids.store_customer_id },
    'GET /v1/subscriptions': { store_customer_id: ids.store_customer_id },
    'GET /v1/search': { q: ids.store_customer_id },
    'GET /v1/license-keys': { customer_id: ids.license_customer_id, limit: '10' },
    // The operator's statements of a closed month (admin).
    'GET /admin/v1/statements': { month: '2020-01' },
  };
  // Without the ids (a route missing when the suite ran) the seed would not be valid.
  return Object.fromEntries(Object.entries(queries).filter(([, query]) => Object.values(query).every((value) => value !== undefined)));
}

/** Real resources of a merchant, so hostile bodies and queries also reach existing records. */
export async function createRealResources(testApp: TestApp, operations: ApiOperation[], owner: TestTenant): Promise<Record<string, string>> {
  const ids: Record<string, string> = { merchant_id: owner.merchantId };
  const has = (key: string) => operations.some((operation) => operation.key === key);
  const key = bearer(owner.testKey);
  const created = (response: Response, what: string) => {
    if (response.status !== 201 && response.status !== 200) throw new Error(`Fuzz setup: creating ${what} failed: ${describeResponse(response)}`);
    return response.body.data as Record<string, unknown>;
  };
  if (has('POST /v1/products')) {
    const product = created(
      await testApp.http.post('/v1/products').set(key).send({
        name: 'Fuzz target',
        entitlement_type: 'permanent',
        store_product_id: 'fuzz_sku',
        fulfillment_config: { delivery_method: 'URL', access_url: 'https://example.com/fuzz' },
      }),
      'a product',
    );
    ids.product_id = String(product.id);
    if (has('POST /v1/entitlements')) {
      const entitlement = created(
        await testApp.http.post('/v1/entitlements').set(key).send({ store_customer_id: 'fuzz_customer', product_id: product.id }),
        'an entitlement',
      );
      ids.entitlement_id = String(entitlement.id);
      ids.customer_id = String(entitlement.customer_id);
      ids.store_customer_id = 'fuzz_customer';
    }
    if (has('POST /v1/files/upload-url')) {
      // Files link to products that deliver by FILE.
      const fileProduct = created(
        await testApp.http.post('/v1/products').set(key).send({ name: 'Fuzz download', entitlement_type: 'permanent', store_product_id: 'fuzz_file_sku' }),
        'a FILE product',
      );
      ids.file_product_id = String(fileProduct.id);
      const file = created(
        await testApp.http.post('/v1/files/upload-url').set(key).send({ file_name: 'fuzz.pdf', file_size: 1000, mime_type: 'application/pdf', product_id: fileProduct.id }),
        'an upload URL',
      );
      ids.file_id = String(file.file_id ?? file.id);
    }
  }
  if (has('POST /v1/orders') && ids.product_id) {
    const order = created(
      await testApp.http
        .post('/v1/orders')
        .set(key)
        .send({ store_order_id: 'fuzz_order', store_customer_id: 'fuzz_customer', line_items: [{ store_line_item_id: 'li_1', product_id: ids.product_id }] }),
      'an order',
    );
    ids.order_id = String(order.id);
    ids.store_order_id = 'fuzz_order';
  }
  if (has('PUT /v1/subscriptions/store/{store_subscription_id}')) {
    const product = created(
      await testApp.http.post('/v1/products').set(key).send({ name: 'Fuzz subscription', entitlement_type: 'subscription_linked', store_product_id: 'fuzz_sub_sku' }),
      'a subscription product',
    );
    ids.subscription_product_id = String(product.id);
    ids.store_subscription_id = 'fuzz_subscription';
  }
  if (has('POST /v1/licenses/activate') && has('POST /v1/products')) {
    // A key with no limit (activations with hostile fingerprints never meet a 409) and one device.
    const product = created(
      await testApp.http.post('/v1/products').set(key).send({ name: 'Fuzz licensed', entitlement_type: 'permanent', license: { activation_limit: null } }),
      'a licensed product',
    );
    const entitlement = created(await testApp.http.post('/v1/entitlements').set(key).send({ store_customer_id: 'fuzz_licensee', product_id: product.id }), 'a licensed entitlement');
    const license = (await testApp.http.get(`/v1/license-keys?entitlement_id=${String(entitlement.id)}`).set(key).expect(200)).body.data[0] as Record<string, unknown>;
    ids.license_key_id = String(license.id);
    ids.license_key = String(license.key);
    ids.license_customer_id = String(entitlement.customer_id);
    const activation = created(await testApp.http.post('/v1/licenses/activate').send({ key: license.key, fingerprint: 'fuzz-machine' }), 'an activation');
    ids.activation_id = String((activation.activation as Record<string, unknown>).id);
  }
  if (has('POST /v1/test-clocks')) {
    const clock = created(await testApp.http.post('/v1/test-clocks').set(key).send({ frozen_time: '2027-01-01T00:00:00Z' }), 'a test clock');
    ids.test_clock_id = String(clock.id);
  }
  if (has('GET /v1/events')) {
    const events = await testApp.http.get('/v1/events').set(key).expect(200);
    if (events.body.data.length > 0) ids.event_id = String(events.body.data[0].id);
  }
  // Last, and disabled: no event is delivered to it, so no delivery row changes while fuzzing.
  if (has('POST /v1/webhook-endpoints')) {
    const endpoint = created(
      await testApp.http.post('/v1/webhook-endpoints').set(key).send({ url: LOOPBACK_WEBHOOK_URL, enabled_events: ['*'] }),
      'a webhook endpoint',
    );
    ids.endpoint_id = String(endpoint.id);
    if (has('PATCH /v1/webhook-endpoints/{endpoint_id}')) {
      await testApp.http.patch(`/v1/webhook-endpoints/${endpoint.id}`).set(key).send({ disabled: true }).expect(200);
    }
  }
  if (has('GET /admin/v1/merchants/{merchant_id}/api-keys')) {
    // A key of its own, so revoking it never locks the suite out.
    await testApp.createKey(owner.merchantId, 'test', ['products:read']);
    const keys = await testApp.http.get(`/admin/v1/merchants/${owner.merchantId}/api-keys`).set(bearer(TEST_ADMIN_TOKEN)).expect(200);
    const spare = (keys.body.data as Array<{ id: string; scopes: string[] }>).find((candidate) => candidate.scopes.join() === 'products:read');
    if (spare) ids.api_key_id = spare.id;
  }
  return ids;
}

