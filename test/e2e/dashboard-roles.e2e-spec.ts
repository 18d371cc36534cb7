import { insertProduct } from '../support/entitlement-fixtures';
import { bearer, createTestApp, TEST_ADMIN_TOKEN, TestApp, TestTenant } from '../support/test-app';

const PASSWORD = 'correct horse battery';
const ROLES = ['owner', 'admin', 'developer', 'support', 'viewer'] as const;
type Role = (typeof ROLES)[number];

interface Member {
  userId: string;
  email: string;
  cookie: string;
  csrf: string;
}

interface Operation {
  name: string;
  /** Sends the operation as the member; resolves to the response status. */
  send(member: Member): Promise<number>;
  allowed: readonly Role[];
}

/**
 * DESIGN §11 roles, through real dashboard sessions: each role × operation is allowed or refused
 * (403 INSUFFICIENT_SCOPE) by the server, a change applies at the member's next request on every
 * instance, the owner rules hold (409 LAST_OWNER), and `test_only` members get 403 in live mode.
 */
describe('dashboard roles', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  const members = new Map<Role, Member>();
  let productId: string;
  let entitlementIds: string[];

  const uniqueEmail = (label: string) => `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const tokenOf = (setupUrl: string) => new URL(setupUrl).hash.replace('#token=', '');
  const as = (member: Member, mode?: 'test' | 'live') => ({ Cookie: member.cookie, 'X-CSRF-Token': member.csrf, ...(mode ? { 'Eh-Mode': mode } : {}) });

  async function member(merchantId: string, body: { role?: Role; test_only?: boolean }, app = testApp): Promise<Member> {
    const email = uniqueEmail(body.role ?? 'first');
    const created = await app.http.post(`/admin/v1/merchants/${merchantId}/users`).set(bearer(TEST_ADMIN_TOKEN)).send({ email, ...body }).expect(201);
    await app.http.post('/dashboard/api/setup').send({ token: tokenOf(created.body.data.setup_url), password: PASSWORD }).expect(200);
    const signedIn = await app.http.post('/dashboard/api/sign-in').send({ email, password: PASSWORD }).expect(200);
    const cookie = ([] as string[]).concat(signedIn.headers['set-cookie'] ?? [])[0].split(';')[0];
    return { userId: created.body.data.id, email, cookie, csrf: signedIn.body.data.csrf_token };
  }

  beforeAll(async () => {
    testApp = await createTestApp();
    tenant = await testApp.createTenant();
    for (const role of ROLES) members.set(role, await member(tenant.merchantId, { role }));
    productId = (await insertProduct(testApp, tenant.merchantId, 'test')).id;
    entitlementIds = [];
    for (let index = 0; index < ROLES.length; index += 1) {
      const granted = await testApp.http.post('/v1/entitlements').set(bearer(tenant.testKey)).send({ store_customer_id: `roles-${index}`, product_id: productId }).expect(201);
      entitlementIds.push(granted.body.data.id);
    }
  });
  afterAll(() => testApp.close());

  const of = (role: Role) => members.get(role) as Member;
  const everyone = ROLES;
  const status = async (call: PromiseLike<{ status: number }>) => (await call).status;

  const OPERATIONS: Operation[] = [
    { name: 'list entitlements', allowed: everyone, send: (m) => status(testApp.http.get('/v1/entitlements?store_customer_id=roles-0').set(as(m, 'test'))) },
    { name: 'list webhook endpoints', allowed: everyone, send: (m) => status(testApp.http.get('/v1/webhook-endpoints').set(as(m, 'test'))) },
    { name: 'list the team', allowed: everyone, send: (m) => status(testApp.http.get('/dashboard/api/team').set(as(m))) },
    {
      name: 'grant an entitlement',
      allowed: ['owner', 'admin', 'developer', 'support'],
      send: (m) => status(testApp.http.post('/v1/entitlements').set(as(m, 'test')).send({ store_customer_id: `granted-by-${m.userId}`, product_id: productId })),
    },
    {
      name: 'suspend an entitlement',
      allowed: ['owner', 'admin', 'developer', 'support'],
      send: (m) => status(testApp.http.post(`/v1/entitlements/${entitlementIds[[...members.values()].indexOf(m)]}/suspend`).set(as(m, 'test')).send({ reason: 'roles' })),
    },
    {
      name: 'create a product',
      allowed: ['owner', 'admin', 'developer'],
      send: (m) =>
        status(
          testApp.http
            .post('/v1/products')
            .set(as(m, 'test'))
            .send({ name: 'Role product', store_product_id: `sku-${m.userId}`, entitlement_type: 'permanent', fulfillment_config: { delivery_method: 'URL', access_url: 'https://example.com/a' } }),
        ),
    },
    {
      name: 'create a webhook endpoint',
      allowed: ['owner', 'admin', 'developer'],
      send: (m) => status(testApp.http.post('/v1/webhook-endpoints').set(as(m, 'test')).send({ url: 'https://example.com/hook', enabled_events: ['*'] })),
    },
    {
      name: 'create a test API key',
      allowed: ['owner', 'admin', 'developer'],
      send: (m) => status(testApp.http.post('/dashboard/api/api-keys').set(as(m)).send({ mode: 'test', scopes: ['entitlements:read'], name: 'roles' })),
    },
    {
      name: 'create a live API key',
      allowed: ['owner', 'admin', 'developer'],
      send: (m) => status(testApp.http.post('/dashboard/api/api-keys').set(as(m)).send({ mode: 'live', scopes: ['entitlements:read'], name: 'roles' })),
    },
    {
      name: 'create a key with every scope (audit:read among them)',
      allowed: ['owner', 'admin'],
      send: (m) => status(testApp.http.post('/dashboard/api/api-keys').set(as(m)).send({ mode: 'test', scopes: ['*'], name: 'roles' })),
    },
    {
      name: 'invite a teammate',
      allowed: ['owner', 'admin'],
      send: (m) => status(testApp.http.post('/dashboard/api/team/invitations').set(as(m)).send({ email: uniqueEmail('invited'), role: 'support' })),
    },
    {
      // The owner's refusal: a merchant always keeps one owner (409), everyone else lacks team:owners (403).
      name: 'demote the only owner',
      allowed: [],
      send: (m) => status(testApp.http.patch(`/dashboard/api/team/${of('owner').userId}`).set(as(m)).send({ role: 'viewer' })),
    },
    {
      name: 'reset the owner',
      allowed: ['owner'],
      send: (m) => status(testApp.http.post(`/dashboard/api/team/${of('owner').userId}/reset-link`).set(as(m))),
    },
  ];

  it('refuses each role something and allows it something', () => {
    for (const role of ROLES) {
      expect({ role, allowed: OPERATIONS.some((operation) => operation.allowed.includes(role)) }).toEqual({ role, allowed: true });
      expect({ role, refused: OPERATIONS.some((operation) => !operation.allowed.includes(role)) }).toEqual({ role, refused: true });
    }
  });

  it.each(OPERATIONS.map((operation) => [operation.name, operation] as const))('%s: allowed and refused by role', async (_name, operation) => {
    const outcomes: Record<string, string> = {};
    const expected: Record<string, string> = {};
    for (const role of ROLES) {
      const code = await operation.send(of(role));
      outcomes[role] = code === 403 || code === 409 ? 'refused' : code >= 200 && code < 300 ? 'allowed' : `HTTP ${code}`;
      expected[role] = operation.allowed.includes(role) ? 'allowed' : 'refused';
    }
    expect(outcomes).toEqual(expected);
  });

  it('says which role lacks which scope', async () => {
    const refused = await testApp.http.post('/v1/products').set(as(of('support'), 'test')).send({}).expect(403);
    expect(refused.body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', type: 'permission_error' });
    expect(refused.body.error.message).toContain("role 'support' lacks the scope 'products:write'");
    const session = await testApp.http.get('/dashboard/api/session').set(as(of('support'))).expect(200);
    expect(session.body.data).toMatchObject({ role: 'support', test_only: false });
    expect(session.body.data.scopes).toEqual(expect.arrayContaining(['entitlements:grant', 'events:redeliver', 'products:read']));
    expect(session.body.data.scopes).not.toContain('products:write');
  });

  it('keeps the owner rules: only an owner changes or removes an owner, and one owner stays', async () => {
    const other = await testApp.createTenant();
    const owner = await member(other.merchantId, {});
    const admin = await member(other.merchantId, { role: 'admin' });
    const team = (await testApp.http.get('/dashboard/api/team').set(as(owner)).expect(200)).body.data;
    expect(team.map((entry: { role: string }) => entry.role)).toEqual(['owner', 'admin']);

    expect((await testApp.http.delete(`/dashboard/api/team/${owner.userId}`).set(as(admin)).expect(403)).body.error.code).toBe('INSUFFICIENT_SCOPE');
    expect((await testApp.http.patch(`/dashboard/api/team/${owner.userId}`).set(as(admin)).send({ role: 'viewer' }).expect(403)).body.error.code).toBe('INSUFFICIENT_SCOPE');
    expect((await testApp.http.patch(`/dashboard/api/team/${admin.userId}`).set(as(admin)).send({ role: 'owner' }).expect(403)).body.error.code).toBe('INSUFFICIENT_SCOPE');
    expect((await testApp.http.post('/dashboard/api/team/invitations').set(as(admin)).send({ email: uniqueEmail('owner'), role: 'owner' }).expect(403)).body.error.code).toBe('INSUFFICIENT_SCOPE');
    // The only owner can't step down or leave.
    expect((await testApp.http.patch(`/dashboard/api/team/${owner.userId}`).set(as(owner)).send({ role: 'admin' }).expect(409)).body.error.code).toBe('LAST_OWNER');
    expect((await testApp.http.delete(`/dashboard/api/team/${owner.userId}`).set(as(owner)).expect(409)).body.error.code).toBe('LAST_OWNER');
    expect((await testApp.http.post(`/admin/v1/merchants/${other.merchantId}/users`).set(bearer(TEST_ADMIN_TOKEN)).send({ email: owner.email, role: 'viewer' }).expect(409)).body.error.code).toBe(
      'LAST_OWNER',
    );
    // Once there is a second owner, the first may step down; an admin may change other admins.
    await testApp.http.patch(`/dashboard/api/team/${admin.userId}`).set(as(owner)).send({ role: 'owner' }).expect(200);
    const changed = await testApp.http.patch(`/dashboard/api/team/${owner.userId}`).set(as(owner)).send({ role: 'admin' }).expect(200);
    expect(changed.body.data).toMatchObject({ id: owner.userId, role: 'admin', test_only: false });
  });

  it('applies a role change at the next request, on every instance', async () => {
    const second = await createTestApp();
    try {
      const other = await testApp.createTenant();
      const owner = await member(other.merchantId, {});
      const viewer = await member(other.merchantId, { role: 'viewer' });
      const body = { name: 'Promoted', store_product_id: 'sku-promoted', entitlement_type: 'permanent', fulfillment_config: { delivery_method: 'URL', access_url: 'https://example.com/a' } };
      await second.http.post('/v1/products').set(as(viewer, 'test')).send(body).expect(403);
      await testApp.http.patch(`/dashboard/api/team/${viewer.userId}`).set(as(owner)).send({ role: 'developer' }).expect(200);
      await second.http.post('/v1/products').set(as(viewer, 'test')).send(body).expect(201);
      await testApp.http.patch(`/dashboard/api/team/${viewer.userId}`).set(as(owner)).send({ role: 'viewer' }).expect(200);
      await second.http.post('/v1/products').set(as(viewer, 'test')).send({ ...body, store_product_id: 'sku-demoted' }).expect(403);
    } finally {
      await second.close();
    }
  });

  it('refuses every live request of a member limited to test mode', async () => {
    const limited = await member(tenant.merchantId, { role: 'developer', test_only: true });
    await testApp.http.get('/v1/entitlements?store_customer_id=roles-0').set(as(limited, 'test')).expect(200);
    const live = await testApp.http.get('/v1/entitlements?store_customer_id=roles-0').set(as(limited, 'live')).expect(403);
    expect(live.body.error.message).toContain('limited to test mode');
    await testApp.http.get('/dashboard/api/overview').set(as(limited, 'live')).expect(403);
    await testApp.http.get('/dashboard/api/overview').set(as(limited, 'test')).expect(200);
    await testApp.http.post('/dashboard/api/api-keys').set(as(limited)).send({ mode: 'live', scopes: ['entitlements:read'] }).expect(403);
    await testApp.http.post('/dashboard/api/api-keys').set(as(limited)).send({ mode: 'test', scopes: ['entitlements:read'] }).expect(201);
  });

  it('makes a merchant\'s first user owner and the next ones viewers unless told', async () => {
    const other = await testApp.createTenant();
    const first = await testApp.http.post(`/admin/v1/merchants/${other.merchantId}/users`).set(bearer(TEST_ADMIN_TOKEN)).send({ email: uniqueEmail('first') }).expect(201);
    const next = await testApp.http.post(`/admin/v1/merchants/${other.merchantId}/users`).set(bearer(TEST_ADMIN_TOKEN)).send({ email: uniqueEmail('next') }).expect(201);
    expect([first.body.data.role, next.body.data.role]).toEqual(['owner', 'viewer']);
    const invited = await testApp.http.post('/dashboard/api/team/invitations').set(as(of('owner'))).send({ email: uniqueEmail('plain') }).expect(201);
    expect(invited.body.data.user).toMatchObject({ role: 'viewer', test_only: false });
  });
});
