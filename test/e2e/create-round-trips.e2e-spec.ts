import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { DataSource, Logger, QueryRunner } from 'typeorm';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';

/**
 * Issue 26: an idempotent entitlement create costs 8 round trips to the database: the key's
 * lookup, BEGIN, the key's claim, the customer, one combined read (the product, what it includes
 * and the grant rules they fire), the entitlement, one closing write (the outbox's event and
 * deliveries, and the stored response), COMMIT. Counted from every statement TypeORM sends while
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
    const notTheCreate = /webhook_claim_deliveries|pg_advisory_xact_lock|webhook_delivery_attempts|\b(FROM|JOIN) "?merchants\b/i;
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

  it('is eight statements, and what it wrote is what a GET, the events and a replay show', async () => {
    const tenant = await testApp.createTenant();
    const { id: productId } = await product(tenant);
    // The first create fills the caches (the API key, the plan).
    await countedCreate(tenant, 'warm', { store_customer_id: 'c_warm', product_id: productId }, 201);
    const { sent, body } = await countedCreate(tenant, 'counted', { store_customer_id: 'c_counted', product_id: productId }, 201);
    expect(sent.map((statement) => statement.trim().slice(0, 60))).toHaveLength(8);
    expect(sent[1]).toMatch(/START TRANSACTION|BEGIN/i);
    expect(sent[7]).toMatch(/COMMIT/i);
    const created = (body as { data: { id: string } }).data;
    const shown = await testApp.http.get(`/v1/entitlements/${created.id}`).set(bearer(tenant.testKey)).expect(200);
    expect(shown.body.data).toEqual(created);
    const events = await testApp.http.get('/v1/events').query({ type: 'entitlement.created' }).set(bearer(tenant.testKey)).expect(200);
    expect(events.body.data[0].data.object).toEqual(created);
    const replay = await testApp.http.post('/v1/entitlements').set(bearer(tenant.testKey)).set('Idempotency-Key', 'counted').send({ store_customer_id: 'c_counted', product_id: productId }).expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(body);
  });

  it('reads a bundle, its included products and the rules they fire in the same one statement, by store id too', async () => {
    const tenant = await testApp.createTenant();
    const included = await product(tenant, { store_product_id: 'sku_included' });
    const bundle = await product(tenant, { store_product_id: 'sku_bundle', included_product_ids: [included.id] });
    const bonus = await product(tenant);
    // The rule is the included product's: it fires from the bundle's child.
    await testApp.http.post('/v1/grant-rules').set(bearer(tenant.testKey)).send({ trigger_product_id: included.id, grant_product_id: bonus.id }).expect(201);
    await countedCreate(tenant, 'warm', { store_customer_id: 'c_warm', store_product_id: 'sku_bundle' }, 201);
    const { sent, body } = await countedCreate(tenant, 'bundle', { store_customer_id: 'c_bundle', store_product_id: 'sku_bundle' }, 201);
    // The rules are read once, in the combined read; the bundle's items too. The one other read of
    // bundle items is the rule's grant's own (whether the bonus product is a bundle), after it.
    expect(sent.filter((statement) => /grant_rules/i.test(statement))).toHaveLength(1);
    const itemReads = sent.flatMap((statement, index) => (/product_bundle_items/i.test(statement) ? [index] : []));
    expect(itemReads).toHaveLength(2);
    expect(sent[itemReads[0]]).toMatch(/grant_rules/);
    expect(sent.slice(itemReads[0] + 1, itemReads[1]).some((statement) => /INSERT INTO "entitlements"/.test(statement))).toBe(true);
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
