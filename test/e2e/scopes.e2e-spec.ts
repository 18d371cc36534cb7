import { GRANTED_BY, SCOPES } from '../../src/auth/scopes';
import { registeredRoutes } from '../support/routes';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';

describe('scopes', () => {
  let testApp: TestApp;
  let tenant: TestTenant;

  beforeAll(async () => {
    testApp = await createTestApp();
    tenant = await testApp.createTenant();
  });
  afterAll(() => testApp.close());

  it('refuses a key without products:read with 403 INSUFFICIENT_SCOPE naming the scope', async () => {
    const key = await testApp.createKey(tenant.merchantId, 'test', ['entitlements:read', 'entitlements:write', 'products:write']);
    for (const url of ['/v1/products', '/v1/products/prod_01jd8x3k2m4n5p6q7r8s9t0v1w']) {
      const response = await testApp.http.get(url).set(bearer(key)).expect(403);
      expect(response.body.error).toMatchObject({
        type: 'permission_error',
        code: 'INSUFFICIENT_SCOPE',
        request_id: response.headers['x-request-id'],
      });
      expect(response.body.error.message).toContain('products:read');
    }
  });

  it('lets through a key with exactly the scope', async () => {
    const key = await testApp.createKey(tenant.merchantId, 'test', ['products:read']);
    await testApp.http.get('/v1/products').set(bearer(key)).expect(200);
  });

  it('grants everything with *', async () => {
    const key = await testApp.createKey(tenant.merchantId, 'live', ['*']);
    await testApp.http.get('/v1/products').set(bearer(key)).expect(200);
  });

  it('enforces the declared scope on every scoped route (403 before any validation or lookup)', async () => {
    const scoped = registeredRoutes(testApp.app).filter((route) => route.requiredScopes.length > 0);
    expect(scoped.length).toBeGreaterThan(0);
    for (const route of scoped) {
      const [needed] = route.requiredScopes;
      const key = await testApp.createKey(
        tenant.merchantId,
        'test',
        // Without the scope and the broader ones implying it (entitlements:write grants entitlements:grant).
        SCOPES.filter((scope) => !(GRANTED_BY.get(needed) ?? [needed]).includes(scope)),
      );
      const url = route.path.replace(/:([A-Za-z_]+)/g, (_match, name: string) => `${name}_unknown`);
      const call = testApp.http[route.method.toLowerCase() as 'get' | 'post' | 'patch' | 'put' | 'delete'](url).set(bearer(key));
      const response = await call;
      expect({ route: `${route.method} ${route.path}`, status: response.status, code: response.body?.error?.code }).toEqual({
        route: `${route.method} ${route.path}`,
        status: 403,
        code: 'INSUFFICIENT_SCOPE',
      });
      expect(response.body.error.message).toContain(needed);
    }
  });

  it('lets a broader scope through where a route declares a narrower one it implies', async () => {
    const writer = await testApp.createKey(tenant.merchantId, 'test', ['webhooks:manage']);
    await testApp.http.get('/v1/webhook-endpoints').set(bearer(writer)).expect(200);
    const reader = await testApp.createKey(tenant.merchantId, 'test', ['webhooks:read']);
    await testApp.http.get('/v1/webhook-endpoints').set(bearer(reader)).expect(200);
    const refused = await testApp.http.post('/v1/webhook-endpoints').set(bearer(reader)).send({}).expect(403);
    expect(refused.body.error.message).toContain('webhooks:manage');
  });
});
