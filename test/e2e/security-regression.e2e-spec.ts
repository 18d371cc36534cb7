import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { GRANTED_BY, SCOPES } from '../../src/auth/scopes';
import { UsageStatementsRepository } from '../../src/billing/usage-statements.repository';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { generateId } from '../../src/ids/id';
import { describeResponse, errorEnvelopeProblem } from '../support/error-envelope';
import { ApiOperation, documentOperations, fillPath } from '../support/openapi-operations';
import { changedTables, StoredDataDigest } from '../support/stored-data-digest';
import { bearer, createTestApp, TEST_ADMIN_TOKEN, TestApp, TestTenant } from '../support/test-app';

/**
 * Security regression suite (issue 6 item 4), built from the OpenAPI document the app serves so a
 * route added later is covered without edits: for every route, another merchant's real ids and
 * the other mode's key give 404, a key without the route's scope 403, no key 401; admin routes
 * without the admin token 401; and no response of the suite carries a key hash, a storage object
 * key, a stack trace or SQL.
 */

/**
 * Which resource of merchant B each path parameter names. A route with a path parameter missing
 * here fails the suite (fail-closed): add the parameter, and create that kind of resource for
 * merchant B in `createVictimResources`.
 */
const PATH_PARAMETER_RESOURCES: Record<string, keyof VictimIds> = {
  product_id: 'productId',
  entitlement_id: 'entitlementId',
  customer_id: 'customerId',
  store_customer_id: 'storeCustomerId',
  file_id: 'fileId',
  endpoint_id: 'endpointId',
  event_id: 'eventId',
  merchant_id: 'merchantId',
  api_key_id: 'apiKeyId',
  rule_id: 'ruleId',
  order_id: 'orderId',
  store_order_id: 'storeOrderId',
  subscription_id: 'subscriptionId',
  store_subscription_id: 'storeSubscriptionId',
  import_id: 'importId',
  test_clock_id: 'testClockId',
  statement_id: 'statementId',
  license_key_id: 'licenseKeyId',
  activation_id: 'activationId',
};

/** Required query parameters that carry ids (the download route names its entitlement and customer). */
const QUERY_PARAMETER_RESOURCES: Record<string, keyof VictimIds> = {
  entitlement_id: 'entitlementId',
  customer_id: 'customerId',
  product_id: 'productId',
  store_customer_id: 'storeCustomerId',
  // GET /v1/search: a customer's id finds that customer, for its owner only.
  q: 'customerId',
  // The operator's statements listing (admin): a month, not an id.
  month: 'statementMonth',
};

/**
 * A valid body for each operation that requires one (or whose optional body the check should
 * carry), so a refusal can only come from the id, the key or the scope. A new operation with a
 * required body fails the suite until it is listed here.
 */
const VALID_BODIES: Record<string, (ids: VictimIds) => Record<string, unknown>> = {
  'POST /admin/v1/merchants': () => ({ name: 'Security suite', plan: 'free' }),
  'PATCH /admin/v1/merchants/{merchant_id}': () => ({ name: 'Renamed by the security suite' }),
  'POST /admin/v1/merchants/{merchant_id}/api-keys': () => ({ mode: 'test', scopes: ['products:read'] }),
  'POST /admin/v1/merchants/{merchant_id}/users': () => ({ email: `security-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com` }),
  'POST /v1/products': () => ({ name: 'Security suite', entitlement_type: 'permanent', fulfillment_config: { delivery_method: 'URL', access_url: 'https://example.com/s' } }),
  'PATCH /v1/products/{product_id}': () => ({ name: 'Renamed by the security suite' }),
  'POST /v1/entitlements': (ids) => ({ store_customer_id: 'security_customer', product_id: ids.productId }),
  'PATCH /v1/entitlements/{entitlement_id}': () => ({ metadata: { by: 'security suite' } }),
  'POST /v1/files/upload-url': () => ({ file_name: 'security.pdf', file_size: 1000, mime_type: 'application/pdf' }),
  'POST /v1/events/{event_id}/redeliver': () => ({}),
  'POST /v1/webhook-endpoints': () => ({ url: 'http://127.0.0.1:9/security', enabled_events: ['*'] }),
  'PATCH /v1/webhook-endpoints/{endpoint_id}': () => ({ description: 'changed by the security suite' }),
  'POST /v1/grant-rules': (ids) => ({ trigger_product_id: ids.productId, grant_product_id: ids.secondProductId }),
  'PATCH /v1/grant-rules/{rule_id}': () => ({ enabled: false }),
  'POST /v1/orders': (ids) => ({ store_order_id: 'security_order', store_customer_id: 'security_customer', line_items: [{ store_line_item_id: 'security_1', product_id: ids.productId }] }),
  'POST /v1/orders/{order_id}/refund': () => ({}),
  // An upsert by store id: another tenant's put names B's product, which it can't see (404).
  'PUT /v1/subscriptions/store/{store_subscription_id}': (ids) => ({ store_customer_id: 'security_subscriber', product_id: ids.subscriptionProductId, status: 'active' }),
  'POST /v1/entitlement-imports': (ids) => ({ rows: [{ store_customer_id: 'security_imported', product_id: ids.productId }] }),
  'POST /v1/test-clocks': () => ({ frozen_time: '2030-01-01T00:00:00.000Z', name: 'security suite' }),
  'POST /v1/test-clocks/{test_clock_id}/advance': () => ({ frozen_time: '2030-02-01T00:00:00.000Z' }),
  // Closing a month before any merchant existed writes nothing.
  'POST /admin/v1/statements/close': (ids) => ({ month: ids.statementMonth }),
  'PATCH /v1/license-keys/{license_key_id}': () => ({ activation_limit: 7 }),
  'POST /v1/portal-sessions': (ids) => ({ customer_id: ids.customerId, return_url: 'https://shop.example.com/account' }),
  'PATCH /v1/portal-settings': () => ({ display_name: 'Refused shop', accent_color: '#0a7d45' }),
};

interface VictimIds {
  merchantId: string;
  productId: string;
  entitlementId: string;
  customerId: string;
  storeCustomerId: string;
  fileId: string;
  endpointId: string;
  eventId: string;
  apiKeyId: string;
  secondProductId: string;
  subscriptionProductId: string;
  ruleId: string;
  orderId: string;
  storeOrderId: string;
  subscriptionId: string;
  storeSubscriptionId: string;
  importId: string;
  testClockId: string;
  statementId: string;
  statementMonth: string;
  licenseKeyId: string;
  activationId: string;
}

/** A closed month's statement for the tenant, written as the month's close writes one. */
async function insertStatement(testApp: TestApp, merchantId: string, mode: 'live' | 'test'): Promise<string> {
  const id = generateId('stmt');
  const statements = testApp.app.get(UsageStatementsRepository);
  await testApp.app.get(UnitOfWork).run((tx) =>
    statements.insertNew(tx, [
      { id, merchant_id: merchantId, mode, month: '2020-01', plan: 'free', included_bandwidth_bytes: 2 ** 30, bandwidth_bytes: 0, overage_bytes: 0, price_per_gib: null, currency: 'usd', amount: 0, created_at: new Date(), next_report_at: null },
    ]),
  );
  return id;
}

/** Patterns that must never appear in a response body. */
const LEAK_PATTERNS: Array<[string, RegExp]> = [
  ['a stack trace line', /\n\s+at |^\s{4}at /m],
  ['a TypeScript source location', /\.ts:\d/],
  ['a JavaScript source location', /\.js:\d+:\d+/],
  ['SQL (SELECT)', /SELECT /],
  ['SQL (INSERT INTO)', /INSERT INTO/],
  ['a constraint violation', /violates/],
  ['a PostgreSQL error', /QueryFailedError|duplicate key value|relation "/],
];

/**
 * Signed URLs address the object, so they carry its key by design (an S3 presigned URL is
 * bucket/key?signature); the key must appear nowhere else.
 */
const SIGNED_URL_FIELDS = new Set(['upload_url', 'download_url']);

function withoutSignedUrls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSignedUrls);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, field]) => [name, SIGNED_URL_FIELDS.has(name) ? '(signed URL)' : withoutSignedUrls(field)]),
  );
}

/** The public routes outside /health: entitlement-token public keys (DESIGN §12) and their issuer (§20). */
const JWKS_PATH = '/.well-known/jwks.json';
const TOKEN_ISSUER_PATH = '/.well-known/entitlement-token-issuer.json';

/** Query strings for the owner's reads of routes that need a filter to answer 200. */
const OWN_READ_QUERIES: Record<string, (ids: VictimIds) => string> = {
  'GET /v1/entitlements/check': (ids) => `customer_id=${ids.customerId}&product_id=${ids.productId}`,
  'GET /v1/entitlements': (ids) => `customer_id=${ids.customerId}`,
  'GET /v1/orders': (ids) => `customer_id=${ids.customerId}`,
  'GET /v1/subscriptions': (ids) => `customer_id=${ids.customerId}`,
};

describe('security regression (every route of the OpenAPI document)', () => {
  let testApp: TestApp;
  let attacker: TestTenant;
  let victim: TestTenant;
  let victimIds: VictimIds;
  let operations: ApiOperation[];
  let digest: StoredDataDigest;
  let victimDigest: Record<string, string>;
  const keysWithout = new Map<string, string>();
  const responses: Response[] = [];

  const record = (response: Response): Response => {
    responses.push(response);
    return response;
  };
  const apiOperations = () => operations.filter((operation) => !operation.isAdmin && !operation.isPublic);
  const adminOperations = () => operations.filter((operation) => operation.isAdmin);

  function created(response: Response, what: string): Record<string, unknown> {
    record(response);
    if (response.status !== 201 && response.status !== 200) throw new Error(`Creating ${what} for merchant B failed: ${describeResponse(response)}`);
    return response.body.data as Record<string, unknown>;
  }

  /** Real resources of every kind for merchant B (test mode), through the API. */
  async function createVictimResources(): Promise<VictimIds> {
    const key = bearer(victim.testKey);
    const ids: Partial<VictimIds> = { merchantId: victim.merchantId, storeCustomerId: 'victim_customer' };
    const product = created(
      await testApp.http.post('/v1/products').set(key).send({ name: 'Victim product', entitlement_type: 'permanent', fulfillment_config: { delivery_method: 'URL', access_url: 'https://example.com/v' } }),
      'a product',
    );
    ids.productId = String(product.id);
    const entitlement = created(await testApp.http.post('/v1/entitlements').set(key).send({ store_customer_id: ids.storeCustomerId, product_id: ids.productId }), 'an entitlement');
    ids.entitlementId = String(entitlement.id);
    ids.customerId = String(entitlement.customer_id);
    // Files link to products that deliver by FILE.
    const fileProduct = created(await testApp.http.post('/v1/products').set(key).send({ name: 'Victim download', entitlement_type: 'permanent' }), 'a FILE product');
    const file = created(
      await testApp.http.post('/v1/files/upload-url').set(key).send({ file_name: 'victim.pdf', file_size: 1000, mime_type: 'application/pdf', product_id: fileProduct.id }),
      'an upload URL',
    );
    ids.fileId = String(file.file_id ?? file.id);
    const endpoint = created(await testApp.http.post('/v1/webhook-endpoints').set(key).send({ url: 'http://127.0.0.1:9/victim', enabled_events: ['*'] }), 'a webhook endpoint');
    ids.endpointId = String(endpoint.id);
    const events = record(await testApp.http.get('/v1/events').set(key));
    if (events.status !== 200 || events.body.data.length === 0) throw new Error(`Merchant B has no event to point at: ${describeResponse(events)}`);
    ids.eventId = String(events.body.data[0].id);
    const keys = record(await testApp.http.get(`/admin/v1/merchants/${victim.merchantId}/api-keys`).set(bearer(TEST_ADMIN_TOKEN)));
    if (keys.status !== 200 || keys.body.data.length === 0) throw new Error(`Merchant B's keys could not be listed: ${describeResponse(keys)}`);
    ids.apiKeyId = String(keys.body.data[0].id);
    // Sources of entitlements (DESIGN §10): a rule, an order, a subscription and an import of B's.
    ids.secondProductId = String(fileProduct.id);
    ids.ruleId = String(created(await testApp.http.post('/v1/grant-rules').set(key).send({ trigger_product_id: ids.productId, grant_product_id: ids.secondProductId }), 'a grant rule').id);
    ids.storeOrderId = 'victim_order';
    const order = created(
      await testApp.http.post('/v1/orders').set(key).send({ store_order_id: ids.storeOrderId, store_customer_id: ids.storeCustomerId, line_items: [{ store_line_item_id: 'victim_li', product_id: ids.productId }] }),
      'an order',
    );
    ids.orderId = String(order.id);
    const plan = created(
      await testApp.http.post('/v1/products').set(key).send({ name: 'Victim plan', entitlement_type: 'subscription_linked', fulfillment_config: { delivery_method: 'URL', access_url: 'https://example.com/plan' } }),
      'a subscription_linked product',
    );
    ids.subscriptionProductId = String(plan.id);
    ids.storeSubscriptionId = 'victim_subscription';
    const subscription = created(
      await testApp.http.put(`/v1/subscriptions/store/${ids.storeSubscriptionId}`).set(key).send({ store_customer_id: ids.storeCustomerId, product_id: ids.subscriptionProductId, status: 'active' }),
      'a subscription',
    );
    ids.subscriptionId = String(subscription.id);
    const imported = record(await testApp.http.post('/v1/entitlement-imports').set(key).send({ rows: [{ store_customer_id: ids.storeCustomerId, product_id: ids.secondProductId }] }));
    if (imported.status !== 202) throw new Error(`Creating an import for merchant B failed: ${describeResponse(imported)}`);
    ids.importId = String(imported.body.data.id);
    ids.testClockId = String(created(await testApp.http.post('/v1/test-clocks').set(key).send({ frozen_time: '2030-01-01T00:00:00.000Z', name: 'victim clock' }), 'a test clock').id);
    // A usage statement is written only when a month ends: one of B's, through billing's own repository.
    ids.statementMonth = '2020-01';
    ids.statementId = await insertStatement(testApp, victim.merchantId, 'test');
    // A license key (DESIGN §18) comes with a grant of a product that issues keys; a device activates it.
    const licensed = created(
      await testApp.http
        .post('/v1/products')
        .set(key)
        .send({ name: 'Victim app', entitlement_type: 'permanent', license: { activation_limit: 3 }, fulfillment_config: { delivery_method: 'URL', access_url: 'https://example.com/app' } }),
      'a product that issues license keys',
    );
    const licensedGrant = created(await testApp.http.post('/v1/entitlements').set(key).send({ store_customer_id: ids.storeCustomerId, product_id: licensed.id }), 'a licensed entitlement');
    const licenseKeys = record(await testApp.http.get('/v1/license-keys').query({ entitlement_id: String(licensedGrant.id) }).set(key));
    if (licenseKeys.status !== 200 || licenseKeys.body.data.length !== 1) throw new Error(`Merchant B's license key could not be listed: ${describeResponse(licenseKeys)}`);
    ids.licenseKeyId = String(licenseKeys.body.data[0].id);
    const activated = record(await testApp.http.post('/v1/licenses/activate').send({ key: licenseKeys.body.data[0].key, fingerprint: 'victim-machine' }));
    if (activated.status !== 201) throw new Error(`Activating merchant B's license key failed: ${describeResponse(activated)}`);
    ids.activationId = String(activated.body.data.activation.id);
    return ids as VictimIds;
  }

  /** The path, query and body of a request that is valid except for what a test changes. */
  function requestParts(operation: ApiOperation, ids: VictimIds): { url: string; body: Record<string, unknown> | null } {
    const pathValues: Record<string, string> = {};
    for (const parameter of operation.pathParameters) {
      const resource = PATH_PARAMETER_RESOURCES[parameter.name];
      if (!resource) {
        throw new Error(
          `${operation.key}: path parameter {${parameter.name}} has no resource in PATH_PARAMETER_RESOURCES (test/e2e/security-regression.e2e-spec.ts). ` +
            'Add it and create such a resource for merchant B in createVictimResources, so the route is checked for tenant and mode isolation.',
        );
      }
      pathValues[parameter.name] = ids[resource];
    }
    const query = operation.queryParameters
      .filter((parameter) => parameter.required)
      .map((parameter) => {
        const resource = QUERY_PARAMETER_RESOURCES[parameter.name];
        if (!resource) {
          throw new Error(`${operation.key}: required query parameter ${parameter.name} has no value in QUERY_PARAMETER_RESOURCES (test/e2e/security-regression.e2e-spec.ts); add it.`);
        }
        return `${parameter.name}=${encodeURIComponent(ids[resource])}`;
      });
    const url = `${fillPath(operation.template, pathValues)}${query.length > 0 ? `?${query.join('&')}` : ''}`;
    const bodyFor = VALID_BODIES[operation.key];
    if (!bodyFor && operation.bodyRequired) {
      throw new Error(`${operation.key} requires a body: add a valid one to VALID_BODIES (test/e2e/security-regression.e2e-spec.ts).`);
    }
    return { url, body: bodyFor ? bodyFor(ids) : null };
  }

  async function call(operation: ApiOperation, ids: VictimIds, headers: Record<string, string>, extraQuery?: string): Promise<Response> {
    const { url, body } = requestParts(operation, ids);
    const fullUrl = extraQuery ? `${url}${url.includes('?') ? '&' : '?'}${extraQuery}` : url;
    const test = testApp.http[operation.method](fullUrl).set(headers);
    return record(await (body ? test.send(body) : test));
  }

  /** Runs a check on each operation and fails once, listing every operation that failed. */
  async function expectForEach(candidates: ApiOperation[], check: (operation: ApiOperation) => Promise<string | null>): Promise<void> {
    const failures: string[] = [];
    for (const operation of candidates) {
      try {
        const problem = await check(operation);
        if (problem) failures.push(`${operation.key}: ${problem}`);
      } catch (error) {
        failures.push(`${operation.key}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (failures.length > 0) throw new Error(`${failures.length} of ${candidates.length} operations failed:\n${failures.join('\n')}`);
  }

  function expectError(response: Response, status: number, code: RegExp): string | null {
    if (response.status !== status || !code.test(String(response.body?.error?.code))) return `expected ${status} ${code.source}, got ${describeResponse(response)}`;
    const problem = errorEnvelopeProblem(response);
    return problem ? `not a catalogue error: ${problem}` : null;
  }

  beforeAll(async () => {
    testApp = await createTestApp({ EXPIRY_SWEEP_INTERVAL: '1h' });
    attacker = await testApp.createTenant('pro');
    victim = await testApp.createTenant('pro');
    operations = documentOperations(testApp.app);
    victimIds = await createVictimResources();
    // Disabled, so no delivery row changes while the suite runs; keys made up front, so the
    // digest taken now must still hold after every refused request.
    record(await testApp.http.patch(`/v1/webhook-endpoints/${victimIds.endpointId}`).set(bearer(victim.testKey)).send({ disabled: true }));
    for (const scope of SCOPES) keysWithout.set(scope, await testApp.createKey(victim.merchantId, 'test', SCOPES.filter((candidate) => !(GRANTED_BY.get(scope) ?? [scope]).includes(candidate))));
    digest = new StoredDataDigest(testApp.app.get(DataSource));
    victimDigest = await digest.of(victim.merchantId);
  }, 120_000);
  afterAll(() => testApp?.close());

  it('knows the resource behind every path parameter and the scope of every API route (fail-closed)', () => {
    const problems: string[] = [];
    for (const operation of operations) {
      for (const parameter of operation.pathParameters) {
        if (!PATH_PARAMETER_RESOURCES[parameter.name]) {
          problems.push(
            `${operation.key}: path parameter {${parameter.name}} is unknown to the security suite; add it to PATH_PARAMETER_RESOURCES in test/e2e/security-regression.e2e-spec.ts and create such a resource for merchant B in createVictimResources`,
          );
        }
      }
      if (!operation.isAdmin && !operation.isPublic && operation.requiredScopes.length === 0) {
        problems.push(`${operation.key}: an API-key route without x-required-scopes in the document`);
      }
      // The license routes of customers' apps take the license key instead of an API key (DESIGN §18): licenses.e2e-spec.ts and license-guessing.e2e-spec.ts check them.
      const licenseAppRoute = operation.template.startsWith('/v1/licenses/');
      if (operation.isPublic && !operation.template.startsWith('/health/') && operation.template !== JWKS_PATH && operation.template !== TOKEN_ISSUER_PATH && !licenseAppRoute) {
        problems.push(`${operation.key}: a public route outside /health; if that is intended, give it its own checks in this suite`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('publishes only public key material in the JWKS, to anyone', async () => {
    const response = record(await testApp.http.get(JWKS_PATH).expect(200));
    const keys = (response.body as { keys: Array<Record<string, unknown>> }).keys;
    expect(keys.length).toBeGreaterThan(0);
    // RFC 7517/8037: `d` (and RSA's p, q, dp, dq, qi, or a symmetric `k`) would be the private key.
    for (const key of keys) expect(Object.keys(key).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x']);
  });

  it('publishes only the issuer and the key set URL in the token issuer document, to anyone', async () => {
    const response = record(await testApp.http.get(TOKEN_ISSUER_PATH).expect(200));
    expect(Object.keys(response.body as object).sort()).toEqual(['audience_format', 'id_token_signing_alg_values_supported', 'issuer', 'jwks_uri']);
  });

  it("lets merchant B read its own records through every read route (so the 404s below come from isolation, not from wrong ids)", async () => {
    await expectForEach(
      operations.filter((operation) => operation.method === 'get' && !operation.isPublic && !operation.template.endsWith('/download')),
      async (operation) => {
        const query = OWN_READ_QUERIES[operation.key]?.(victimIds);
        const response = await call(operation, victimIds, operation.isAdmin ? bearer(TEST_ADMIN_TOKEN) : bearer(victim.testKey), query);
        return response.status === 200 ? null : `expected 200, got ${describeResponse(response)}`;
      },
    );
  });

  it("answers 404 to another merchant's real ids on every route that takes an id", async () => {
    await expectForEach(
      apiOperations().filter((operation) => operation.pathParameters.length > 0),
      async (operation) => expectError(await call(operation, victimIds, bearer(attacker.testKey)), 404, /NOT_FOUND$/),
    );
  });

  it("answers 404 to the merchant's own ids under the other mode's key on every route that takes an id", async () => {
    await expectForEach(
      apiOperations().filter((operation) => operation.pathParameters.length > 0),
      // Test clocks exist in test mode only: a live key is refused before any id is looked at (DESIGN §14).
      async (operation) =>
        operation.template.startsWith('/v1/test-clocks')
          ? expectError(await call(operation, victimIds, bearer(victim.liveKey)), 400, /^TEST_MODE_ONLY$/)
          : expectError(await call(operation, victimIds, bearer(victim.liveKey)), 404, /NOT_FOUND$/),
    );
  });

  it("finds nothing of another merchant's through ids in bodies and queries", async () => {
    const has = (key: string) => operations.some((operation) => operation.key === key);
    const attackerKey = bearer(attacker.testKey);
    const problems: string[] = [];
    const check = (label: string, response: Response, expected: (response: Response) => boolean) => {
      record(response);
      if (!expected(response)) problems.push(`${label}: ${describeResponse(response)}`);
    };
    if (has('POST /v1/entitlements')) {
      check(
        "POST /v1/entitlements with B's product_id",
        await testApp.http.post('/v1/entitlements').set(attackerKey).send({ store_customer_id: 'attacker_customer', product_id: victimIds.productId }),
        (response) => response.status === 404 && response.body.error.code === 'PRODUCT_NOT_FOUND',
      );
      const ownProduct = record(await testApp.http.post('/v1/products').set(attackerKey).send(VALID_BODIES['POST /v1/products'](victimIds)));
      check(
        "POST /v1/entitlements with B's customer_id",
        await testApp.http.post('/v1/entitlements').set(attackerKey).send({ customer_id: victimIds.customerId, product_id: ownProduct.body.data?.id }),
        (response) => response.status === 404 && response.body.error.code === 'CUSTOMER_NOT_FOUND',
      );
    }
    if (has('POST /v1/files/upload-url')) {
      check(
        "POST /v1/files/upload-url with B's product_id",
        await testApp.http.post('/v1/files/upload-url').set(attackerKey).send({ file_name: 'a.pdf', file_size: 10, mime_type: 'application/pdf', product_id: victimIds.productId }),
        (response) => response.status === 404,
      );
    }
    if (has('POST /v1/events/{event_id}/redeliver')) {
      const ownEvents = record(await testApp.http.get('/v1/events').set(attackerKey));
      const ownEvent = ownEvents.body.data?.[0]?.id as string | undefined;
      if (ownEvent) {
        check(
          "POST /v1/events/{own event}/redeliver to B's endpoint_id",
          await testApp.http.post(`/v1/events/${ownEvent}/redeliver`).set(attackerKey).send({ endpoint_id: victimIds.endpointId }),
          (response) => response.status === 404,
        );
      }
    }
    if (has('GET /v1/entitlements/check')) {
      check(
        "GET /v1/entitlements/check with B's customer and product",
        await testApp.http.get(`/v1/entitlements/check?customer_id=${victimIds.customerId}&product_id=${victimIds.productId}`).set(attackerKey),
        (response) => response.status === 200 && response.body.data.entitled === false,
      );
    }
    if (has('GET /v1/entitlements')) {
      check(
        "GET /v1/entitlements?customer_id= B's customer",
        await testApp.http.get(`/v1/entitlements?customer_id=${victimIds.customerId}`).set(attackerKey),
        (response) => response.status === 200 && response.body.data.length === 0,
      );
    }
    if (has('GET /v1/search')) {
      // Every id of B's and B's store customer id find nothing under A's key.
      for (const [name, id] of Object.entries(victimIds)) {
        check(`GET /v1/search?q= B's ${name}`, await testApp.http.get('/v1/search').query({ q: id }).set(attackerKey), (response) => response.status === 200 && response.body.data.length === 0);
      }
    }
    // B's audit log names B's objects and keys; A's list must name none of them.
    for (const list of ['/v1/products', '/v1/files', '/v1/events', '/v1/webhook-endpoints', '/v1/audit-log']) {
      if (!has(`GET ${list}`)) continue;
      check(`GET ${list} under A's key`, await testApp.http.get(list).set(attackerKey), (response) => {
        const text = JSON.stringify(response.body);
        return response.status === 200 && !Object.values(victimIds).some((id) => id !== victimIds.storeCustomerId && text.includes(id));
      });
    }
    expect(problems).toEqual([]);
  });

  it("answers 403 INSUFFICIENT_SCOPE to a key holding every scope but the route's", async () => {
    await expectForEach(apiOperations(), async (operation) => {
      for (const scope of operation.requiredScopes) {
        const key = keysWithout.get(scope);
        if (!key) return `requires ${scope}, which is not a scope of src/auth/scopes.ts`;
        const response = await call(operation, victimIds, bearer(key));
        const problem = expectError(response, 403, /^INSUFFICIENT_SCOPE$/);
        if (problem) return `without ${scope}: ${problem}`;
        if (!String(response.body.error.message).includes(scope)) return `the message does not name the missing scope ${scope}: ${response.body.error.message}`;
      }
      return null;
    });
  });

  it('answers 401 INVALID_API_KEY without a key, with a malformed one and with an unknown one, on every API route', async () => {
    const unknownKey = `eh_test_${'A'.repeat(40)}`;
    await expectForEach(apiOperations(), async (operation) => {
      for (const [label, headers] of [
        ['no Authorization header', {}],
        ['a malformed key', { Authorization: 'Bearer not-a-key' }],
        ['an unknown key', bearer(unknownKey)],
        ['Basic instead of Bearer', { Authorization: `Basic ${Buffer.from(`${victim.testKey}:`).toString('base64')}` }],
        ['the admin token', bearer(TEST_ADMIN_TOKEN)],
      ] as Array<[string, Record<string, string>]>) {
        const problem = expectError(await call(operation, victimIds, headers), 401, /^INVALID_API_KEY$/);
        if (problem) return `${label}: ${problem}`;
      }
      // A key in the query string is refused even when it is valid (it would end up in logs).
      for (const name of ['api_key', 'key', 'access_token']) {
        const problem = expectError(await call(operation, victimIds, {}, `${name}=${victim.testKey}`), 401, /^INVALID_API_KEY$/);
        if (problem) return `a valid key in the query string (${name}): ${problem}`;
      }
      return null;
    });
  });

  it('answers 401 on every admin route without the admin token, with a wrong one and with an API key', async () => {
    await expectForEach(adminOperations(), async (operation) => {
      for (const [label, headers] of [
        ['no Authorization header', {}],
        ['a wrong token', bearer(`${TEST_ADMIN_TOKEN}x`)],
        ['a prefix of the token', bearer(TEST_ADMIN_TOKEN.slice(0, -1))],
        ['an API key with every scope', bearer(victim.testKey)],
      ] as Array<[string, Record<string, string>]>) {
        const problem = expectError(await call(operation, victimIds, headers), 401, /^INVALID_API_KEY$/);
        if (problem) return `${label}: ${problem}`;
      }
      return null;
    });
  });

  it('answers 404 to a 4 KB path segment on every route that takes an id, with and without a key', async () => {
    const fourKilobytes = { plain: 'x'.repeat(4096), idShaped: `ent_${'0'.repeat(4092)}` };
    await expectForEach(
      operations.filter((operation) => operation.pathParameters.length > 0),
      async (operation) => {
        for (const [label, segment] of Object.entries(fourKilobytes)) {
          const pathValues = Object.fromEntries(operation.pathParameters.map((parameter) => [parameter.name, segment]));
          const url = fillPath(operation.template, pathValues);
          const body = VALID_BODIES[operation.key]?.(victimIds);
          for (const [who, headers] of [
            ['with a key', operation.isAdmin ? bearer(TEST_ADMIN_TOKEN) : bearer(victim.testKey)],
            ['without a key', {}],
          ] as Array<[string, Record<string, string>]>) {
            const test = testApp.http[operation.method](url).set(headers);
            const response = record(await (body ? test.send(body) : test));
            const problem = expectError(response, 404, /NOT_FOUND$/);
            if (problem) return `${label} segment ${who}: ${problem}`;
          }
        }
        return null;
      },
    );
  });

  it("leaves merchant B's stored data unchanged after every refused request", async () => {
    expect(changedTables(victimDigest, await digest.of(victim.merchantId))).toEqual([]);
  });

  it('never puts a key hash, a raw key, a storage object key, a stack trace or SQL in any response of this suite', async () => {
    const dataSource = testApp.app.get(DataSource);
    const keyHashes = ((await dataSource.query('SELECT key_hash FROM api_keys')) as Array<{ key_hash: string }>).map((row) => row.key_hash);
    expect(keyHashes.length).toBeGreaterThan(0);
    const fileColumns = (await dataSource.query(
      `SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'files' AND column_name = 'object_key'`,
    )) as unknown[];
    // The probe must find the column: if the schema moved it, this check must be rewritten, not skipped.
    expect(fileColumns).toHaveLength(1);
    const objectKeys = ((await dataSource.query('SELECT object_key FROM files')) as Array<{ object_key: string }>).map((row) => row.object_key);
    expect(objectKeys.length).toBeGreaterThan(0);
    const secrets: Array<[string, string]> = [
      ...keyHashes.map((hash): [string, string] => ['a key hash', hash]),
      ...objectKeys.map((key): [string, string] => ['a storage object key', key]),
      ...[attacker.testKey, attacker.liveKey, victim.testKey, victim.liveKey].map((key): [string, string] => ['a raw API key', key]),
    ];
    expect(responses.length).toBeGreaterThan(operations.length * 4);
    const leaks: string[] = [];
    for (const response of responses) {
      const raw = `${response.text ?? ''}`;
      const isJson = /json/.test(String(response.headers['content-type']));
      const text = isJson && response.body ? JSON.stringify(withoutSignedUrls(response.body)) : raw;
      const request = (response as unknown as { req?: { method?: string; path?: string } }).req;
      const where = `${request?.method ?? '?'} ${request?.path ?? '?'} → ${response.status}`;
      for (const [what, value] of secrets) if (value && text.includes(value)) leaks.push(`${where}: ${what}`);
      for (const [what, pattern] of LEAK_PATTERNS) if (pattern.test(text)) leaks.push(`${where}: ${what} (${describeResponse(response)})`);
    }
    expect(leaks).toEqual([]);
  });
});
