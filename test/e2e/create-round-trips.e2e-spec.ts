import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { DataSource, Logger, QueryRunner } from 'typeorm';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';

/**
 * Issue 26: an idempotent entitlement create costs 3 round trips to the database: the key's lookup,
 * one combined read (the customer, the product, what it includes and the grant rules they fire),
 * one combined write (the new customer, the entitlement, the outbox's event and deliveries, the
 * key with its response). A grant that brings more (a bundle, a rule) runs as a transaction of 8
 * statements plus what it brings. Counted from every statement TypeORM sends while
 * the request is handled (an AsyncLocalStorage entered by the HTTP server's request listener marks
 * them), so a change that adds one fails. Left out, as in download-round-trips: the webhook
 * dispatcher woken by the commit, and the merchant's plan (cached).
 */
describe('create round trips', () => {
  let testApp: TestApp;
  let statements: string[] | null = null;
  const insideRequest = new AsyncLocalStorage<true>();

  beforeAll(async () => {
    testApp = await createTestApp();
    const server = testApp.app.getHttpServer() as Server;
    for (const listener of server.listeners('request') as Array<(request: IncomingMessage, response: ServerResponse) => void>) {
      server.off('request', listener);
      server.on('request', (request: IncomingMessage, response: ServerResponse) => insideRequest.run(true, () => listener.call(server, request, response)));
    }
    const logger: Logger = testApp.app.get(DataSource).logger;
    const logQuery = logger.logQuery.bind(logger);
    // The API key's lookup is the authentication's, cached 2 s: on a loaded machine the warm-up create may be older than that.
    const notTheCreate = /webhook_claim_deliveries|pg_advisory_xact_lock|webhook_delivery_attempts|\b(FROM|JOIN) "?(merchants|api_keys)\b/i;
    logger.logQuery = (query: string, parameters?: unknown[], queryRunner?: QueryRunner) => {
      if (statements && insideRequest.getStore() && !notTheCreate.test(query)) statements.push(query);
      return logQuery(query, parameters, queryRunner);
    };
  });
  afterAll(() => testApp.close());

  async function countedCreate(tenant: TestTenant, key: string, body: Record<string, unknown>, status: number): Promise<{ sent: string[]; body: Record<string, unknown> }> {
    statements = [];
    try {
      const response = await testApp.http.post('/v1/entitlements').set(bearer(tenant.testKey)).set('Idempotency-Key', key).send(body).expect(status);
      return { sent: statements, body: response.body as Record<string, unknown> };
    } finally {
      statements = null;
    }
  }

  async function product(tenant: TestTenant, body: Record<string, unknown> = {}): Promise<{ id: string }> {
    return (await testApp.http.post('/v1/products').set(bearer(tenant.testKey)).send({ name: 'Counted', entitlement_type: 'permanent', fulfillment_config: { delivery_method: 'URL', access_url: 'https://example.com/a' }, ...body }).expect(201)).body.data;
  }

  it.each([
    ['a new customer', 'c_new'],
    ['an existing customer', 'c_warm'],
  ])('is three statements for %s, and what it wrote is what a GET, the events and a replay show', async (_name, storeCustomerId) => {
    const tenant = await testApp.createTenant();
    const { id: productId } = await product(tenant);
    // The first create fills the caches (the API key, the plan).
    await countedCreate(tenant, 'warm', { store_customer_id: 'c_warm', product_id: productId }, 201);
    const request = { store_customer_id: storeCustomerId, product_id: productId, metadata: { seat: 3 }, usage_limit: 4 };
    const { sent, body } = await countedCreate(tenant, 'counted', request, 201);
    expect(sent.map((statement) => statement.trim().slice(0, 60))).toHaveLength(3);
    expect(sent.some((statement) => /START TRANSACTION|BEGIN/i.test(statement))).toBe(false);
    const created = (body as { data: { id: string; customer_id: string } }).data;
    const shown = await testApp.http.get(`/v1/entitlements/${created.id}`).set(bearer(tenant.testKey)).expect(200);
    expect(shown.body.data).toEqual(created);
    expect(created).toMatchObject({ store_customer_id: storeCustomerId, usage_limit: 4, metadata: { seat: 3 }, source: 'api', status: 'active' });
    const customers = await testApp.http.get('/v1/customers').query({ search: storeCustomerId }).set(bearer(tenant.testKey)).expect(200);
    expect(customers.body.data.map((customer: { id: string }) => customer.id)).toEqual([created.customer_id]);
    const events = await testApp.http.get('/v1/events').query({ type: 'entitlement.created' }).set(bearer(tenant.testKey)).expect(200);
    expect(events.body.data[0].data.object).toEqual(created);
    const replay = await testApp.http.post('/v1/entitlements').set(bearer(tenant.testKey)).set('Idempotency-Key', 'counted').send(request).expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(body);
  });

  it('reads a bundle, its included products and the rules they fire in one statement, by store id too, then grants them in a transaction', async () => {
    const tenant = await testApp.createTenant();
    const included = await product(tenant, { store_product_id: 'sku_included' });
    const bundle = await product(tenant, { store_product_id: 'sku_bundle', included_product_ids: [included.id] });
    const bonus = await product(tenant);
    // The rule is the included product's: it fires from the bundle's child.
    await testApp.http.post('/v1/grant-rules').set(bearer(tenant.testKey)).send({ trigger_product_id: included.id, grant_product_id: bonus.id }).expect(201);
    await countedCreate(tenant, 'warm', { store_customer_id: 'c_warm', store_product_id: 'sku_bundle' }, 201);
    const { sent, body } = await countedCreate(tenant, 'bundle', { store_customer_id: 'c_bundle', store_product_id: 'sku_bundle' }, 201);
    // A bundle goes to the transaction: the rules and the bundle's items are read only in the two
    // combined reads (the two-statement path's, which found the bundle, and the transaction's). The
    // one other read of bundle items is the rule's grant's own (is the bonus product a bundle?).
    const ruleReads = sent.filter((statement) => /grant_rules/i.test(statement));
    expect(ruleReads).toHaveLength(2);
    expect(ruleReads.every((statement) => /product_bundle_items/.test(statement))).toBe(true);
    expect(sent.filter((statement) => /product_bundle_items/i.test(statement))).toHaveLength(3);
    expect(sent.some((statement) => /START TRANSACTION|BEGIN/i.test(statement))).toBe(true);
    const customerId = (body as { data: { customer_id: string } }).data.customer_id;
    const held = await testApp.http.get('/v1/entitlements').query({ customer_id: customerId }).set(bearer(tenant.testKey)).expect(200);
    expect(held.body.data.map((entitlement: { product_id: string; source: string }) => [entitlement.product_id, entitlement.source]).sort()).toEqual(
      [
        [bundle.id, 'api'],
        [included.id, 'bundle'],
        [bonus.id, 'rule'],
      ].sort(),
    );
  });
});
