import { readFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import Stripe from 'stripe';
import { stripeStoreAdapter } from '../../examples/stripe-store-adapter';
import { freePort } from '../support/free-port';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';

/**
 * examples/stripe-store-adapter.ts against the real service: Stripe's webhooks (payloads of
 * test/fixtures/stripe/, in the shape Stripe sends for its API version 2026-10-28, signed here
 * with the official library's generateTestHeaderString) become orders and subscriptions, and the
 * access check follows. Stripe's own API, which the adapter asks for a session's line items, is a
 * loopback server answering with the recorded list. Timestamps are moved to now (Stripe signs at
 * delivery), so the recorded period is still running whenever the suite runs.
 */
const FIXTURES = path.resolve(__dirname, '../fixtures/stripe');
const WEBHOOK_SECRET = 'whsec_test_0123456789abcdefghijklmnopqrstuv';
const TIMESTAMP_FIELDS = new Set(['created', 'current_period_end', 'current_period_start', 'billing_cycle_anchor']);

type Payload = { id: string; created: number; data: { object: Record<string, unknown> } } & Record<string, unknown>;

function recorded(name: string): Payload {
  return JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8')) as Payload;
}

/** The payload with every timestamp moved by the same amount, so the event happened `secondsAgo` ago. */
function movedToNow<T>(payload: T & { created: number }, secondsAgo = 0): T {
  const shift = Math.floor(Date.now() / 1000) - secondsAgo - payload.created;
  const move = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(move);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, TIMESTAMP_FIELDS.has(key) && typeof item === 'number' ? item + shift : move(item)]));
  };
  return move(payload) as T;
}

describe('the Stripe store adapter example', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let stripeApi: Server;
  let lineItemRequests: string[];
  let handle: ReturnType<typeof stripeStoreAdapter>;
  const stripe = () => new Stripe('sk_test_not_a_real_key', { host: '127.0.0.1', port: (stripeApi.address() as AddressInfo).port, protocol: 'http', maxNetworkRetries: 0 });
  const signed = (payload: unknown) => {
    const body = JSON.stringify(payload);
    return { body, signature: stripe().webhooks.generateTestHeaderString({ payload: body, secret: WEBHOOK_SECRET }) };
  };
  const check = async (storeCustomerId: string, storeProductId: string) =>
    (await testApp.http.get(`/v1/entitlements/check?store_customer_id=${storeCustomerId}&store_product_id=${storeProductId}`).set(bearer(tenant.testKey)).expect(200)).body.data.entitled;

  beforeAll(async () => {
    const port = await freePort();
    testApp = await createTestApp({ PUBLIC_BASE_URL: `http://127.0.0.1:${port}` });
    await testApp.app.listen(port, '127.0.0.1');
    tenant = await testApp.createTenant();
    // The merchant's catalogue names Stripe's product ids as store product ids.
    for (const product of [
      { name: 'The Field Guide (ebook)', entitlement_type: 'permanent', store_product_id: 'prod_TBpEbook42' },
      { name: 'Pro (monthly)', entitlement_type: 'subscription_linked', store_product_id: 'prod_TBpProMonthly' },
    ]) {
      await testApp.http.post('/v1/products').set(bearer(tenant.testKey)).send(product).expect(201);
    }
    lineItemRequests = [];
    const lineItems = readFileSync(path.join(FIXTURES, 'checkout.session.line_items.json'), 'utf8');
    stripeApi = createServer((request, response) => {
      lineItemRequests.push(`${request.method} ${request.url}`);
      if (/^\/v1\/checkout\/sessions\/cs_test_[^/]+\/line_items/.test(request.url ?? '')) response.writeHead(200, { 'Content-Type': 'application/json' }).end(lineItems);
      else response.writeHead(404, { 'Content-Type': 'application/json' }).end('{"error":{"type":"invalid_request_error","message":"not recorded"}}');
    });
    await new Promise<void>((resolve) => stripeApi.listen(0, '127.0.0.1', resolve));
    handle = stripeStoreAdapter({ stripe: stripe(), webhookSecret: WEBHOOK_SECRET, apiUrl: `http://127.0.0.1:${port}`, apiKey: tenant.testKey });
  });
  afterAll(async () => {
    await new Promise((resolve) => stripeApi?.close(resolve));
    await testApp?.close();
  });

  it('turns a paid checkout.session.completed into an order whose matched line items are granted, once however often Stripe retries', async () => {
    const event = movedToNow(recorded('checkout.session.completed'));
    const { body, signature } = signed(event);
    await handle(body, signature);
    const sessionId = event.data.object.id as string;
    expect(lineItemRequests).toEqual([expect.stringMatching(new RegExp(`^GET /v1/checkout/sessions/${sessionId}/line_items\\?limit=100`))]);
    const order = (await testApp.http.get(`/v1/orders/store/${sessionId}`).set(bearer(tenant.testKey)).expect(200)).body.data;
    expect(order).toMatchObject({ store_customer_id: 'cus_TBp2xQ7rLmN4aZ', status: 'active', placed_at: new Date(event.created * 1000).toISOString() });
    expect(order.line_items.map((item: { store_line_item_id: string; status: string }) => [item.store_line_item_id, item.status])).toEqual([
      ['li_1SZx7xLkdIwHu7ixGuide01', 'granted'],
      ['li_1SZx7xLkdIwHu7ixAudio02', 'unmatched'],
    ]);
    expect(await check('cus_TBp2xQ7rLmN4aZ', 'prod_TBpEbook42')).toBe(true);

    // Stripe delivers at least once: the same event again changes nothing.
    await handle(body, signature);
    const orders = (await testApp.http.get('/v1/orders?store_customer_id=cus_TBp2xQ7rLmN4aZ').set(bearer(tenant.testKey)).expect(200)).body;
    expect(orders.pagination.total).toBe(1);
    const grants = (await testApp.http.get('/v1/entitlements?store_customer_id=cus_TBp2xQ7rLmN4aZ').set(bearer(tenant.testKey)).expect(200)).body;
    expect(grants.pagination.total).toBe(1);
  });

  it('refuses what Stripe did not sign: a changed body, another secret, an old signature; nothing reaches the API', async () => {
    const event = movedToNow(recorded('checkout.session.completed'));
    const forged = { ...event, data: { object: { ...event.data.object, id: 'cs_test_forged', customer: 'cus_forger' } } };
    const { signature } = signed(event);
    await expect(handle(JSON.stringify(forged), signature)).rejects.toThrow(Stripe.errors.StripeSignatureVerificationError);
    const otherSecret = stripe().webhooks.generateTestHeaderString({ payload: JSON.stringify(forged), secret: 'whsec_someone_else' });
    await expect(handle(JSON.stringify(forged), otherSecret)).rejects.toThrow(Stripe.errors.StripeSignatureVerificationError);
    const stale = stripe().webhooks.generateTestHeaderString({ payload: JSON.stringify(forged), secret: WEBHOOK_SECRET, timestamp: Math.floor(Date.now() / 1000) - 3600 });
    await expect(handle(JSON.stringify(forged), stale)).rejects.toThrow(Stripe.errors.StripeSignatureVerificationError);
    await testApp.http.get('/v1/orders/store/cs_test_forged').set(bearer(tenant.testKey)).expect(404);
    expect(await check('cus_forger', 'prod_TBpEbook42')).toBe(false);
  });

  it('leaves an unpaid checkout (an asynchronous payment still pending) alone', async () => {
    const event = movedToNow(recorded('checkout.session.completed'));
    const unpaid = { ...event, id: 'evt_unpaid', data: { object: { ...event.data.object, id: 'cs_test_unpaid', payment_status: 'unpaid' } } };
    const { body, signature } = signed(unpaid);
    expect(await handle(body, signature)).toBeNull();
    await testApp.http.get('/v1/orders/store/cs_test_unpaid').set(bearer(tenant.testKey)).expect(404);
  });

  it('turns customer.subscription.updated into the subscription, in Stripe’s order of events whatever order they arrive in', async () => {
    const active = movedToNow(recorded('customer.subscription.updated'), 60);
    const subscription = active.data.object as { id: string; customer: string; items: { data: Array<{ current_period_end: number }> } };
    let { body, signature } = signed(active);
    expect(await handle(body, signature)).toMatchObject({ data: { status: 'active', entitlement_status: 'active', applied: true } });
    expect(await check(subscription.customer, 'prod_TBpProMonthly')).toBe(true);

    // Paused (a newer event), then a late copy of an older "active" one: the late one changes nothing.
    const paused = movedToNow({ ...active, id: 'evt_paused', data: { ...active.data, object: { ...active.data.object, status: 'paused' } } }, 0);
    ({ body, signature } = signed(paused));
    expect(await handle(body, signature)).toMatchObject({ data: { status: 'paused', entitlement_status: 'suspended', applied: true } });
    const late = movedToNow({ ...active, id: 'evt_late' }, 120);
    ({ body, signature } = signed(late));
    expect(await handle(body, signature)).toMatchObject({ data: { status: 'paused', applied: false } });
    expect(await check(subscription.customer, 'prod_TBpProMonthly')).toBe(false);

    const stored = (await testApp.http.get(`/v1/subscriptions?store_customer_id=${subscription.customer}`).set(bearer(tenant.testKey)).expect(200)).body.data;
    expect(stored).toEqual([expect.objectContaining({ store_subscription_id: subscription.id, status: 'paused' })]);
    // The period end of the newest event applied (the paused one).
    const pausedItems = (paused.data.object as unknown as typeof subscription).items.data;
    expect(stored[0].current_period_end).toBe(new Date(pausedItems[0].current_period_end * 1000).toISOString());
  });
});
