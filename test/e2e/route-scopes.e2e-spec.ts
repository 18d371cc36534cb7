import { Controller, Get, Module } from '@nestjs/common';
import { describeAccess, registeredRoutes } from '../support/routes';
import { bearer, createTestApp, TestApp } from '../support/test-app';

describe('route scopes', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  it('declares a scope, @Public(), admin or dashboard access on every route (snapshot)', () => {
    const routes = registeredRoutes(testApp.app);
    expect(routes.length).toBeGreaterThan(0);
    expect(routes.map((route) => `${route.method} ${route.path} → ${describeAccess(route)}`)).toMatchSnapshot();
  });

  it('leaves no route without access metadata, and none with two kinds', () => {
    for (const route of registeredRoutes(testApp.app)) {
      const kinds = [route.requiredScopes.length > 0, route.isPublic, route.isAdmin, route.isDashboard].filter(Boolean).length;
      expect({ route: `${route.method} ${route.path}`, kinds }).toEqual({ route: `${route.method} ${route.path}`, kinds: 1 });
    }
  });

  it('puts every /v1 route behind a scope (but the license routes of apps, which the key in the body authenticates) and every /admin route behind the admin token', () => {
    for (const route of registeredRoutes(testApp.app)) {
      if (route.path.startsWith('/admin/')) expect(`${route.path} admin=${route.isAdmin}`).toBe(`${route.path} admin=true`);
      // DESIGN §18: no API key there; LicensesService authenticates the key (and GuessingRules counts failures).
      if (route.path.startsWith('/v1/licenses/')) expect(`${route.method} ${route.path} public=${route.isPublic}`).toBe(`${route.method} ${route.path} public=true`);
      else if (route.path.startsWith('/v1/')) {
        expect(`${route.method} ${route.path} scoped=${route.requiredScopes.length > 0}`).toBe(`${route.method} ${route.path} scoped=true`);
      }
    }
  });

  it('registers on the HTTP server exactly the routes it enumerates (no route escapes the list)', () => {
    const served = new Set(testApp.servedRoutes);
    const enumerated = new Set(registeredRoutes(testApp.app).map((route) => `${route.method} ${route.path}`));
    for (const route of enumerated) expect(served).toContain(route);
    // Beyond the controllers the server only has Swagger's documentation (public by design);
    // unknown routes reach Fastify's not-found handler, which renders 404 NOT_FOUND.
    const extra = [...served].filter((route) => !enumerated.has(route));
    expect(served.size).toBeGreaterThan(enumerated.size);
    for (const route of extra) expect(route).toMatch(/^GET \/docs/);
  });
});

@Controller('v1/undeclared')
class UndeclaredTestController {
  @Get()
  open(): { reached: boolean } {
    return { reached: true };
  }
}

@Module({ controllers: [UndeclaredTestController] })
class UndeclaredTestModule {}

describe('deny by default', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp({}, { imports: [UndeclaredTestModule] });
  });
  afterAll(() => testApp.close());

  it('refuses a route that declares nothing, even to a key with every scope', async () => {
    const tenant = await testApp.createTenant();
    const response = await testApp.http.get('/v1/undeclared').set(bearer(tenant.testKey)).expect(403);
    expect(response.body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', type: 'permission_error' });
    expect(JSON.stringify(response.body)).not.toContain('reached');
    // Without a key it is still a 401 first: authentication runs before the scope check.
    await testApp.http.get('/v1/undeclared').expect(401);
  });
});
