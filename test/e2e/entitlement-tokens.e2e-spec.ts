import { verifyEntitlementToken } from '@entitlement-delivery/sdk';
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createLocalJWKSet, decodeProtectedHeader, JSONWebKeySet, jwtVerify, JWTPayload } from 'jose';
import { AppConfig } from '../../src/config/app-config';
import { ProductEntity } from '../../src/products/product.entity';
import { ControlledClock, controlClock, ENTITLEMENT_TEST_OVERRIDES, grant, insertProduct } from '../support/entitlement-fixtures';
import { eventually } from '../support/eventually';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';

/**
 * Signed entitlement tokens (DESIGN §12), verified as a customer's app would: fetch the JWKS the
 * service publishes, then check the token offline with jose.
 */
const REPOSITORY = path.join(__dirname, '..', '..');
const HOUR_SECONDS = 3600;

async function fetchJwks(testApp: TestApp): Promise<JSONWebKeySet> {
  const response = await testApp.http.get('/.well-known/jwks.json').expect(200);
  return response.body as JSONWebKeySet;
}

/** jwtVerify against the served JWKS, at the app's (controlled) time. */
async function verify(testApp: TestApp, token: string, at: Date): Promise<JWTPayload> {
  const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(await fetchJwks(testApp)), { algorithms: ['EdDSA'], currentDate: at });
  expect(protectedHeader).toMatchObject({ alg: 'EdDSA', kid: expect.any(String), typ: 'JWT' });
  return payload;
}

function ed25519Pem(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
}

describe('signed entitlement tokens', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  let product: ProductEntity;
  let clock: ControlledClock;

  const issue = (key: string, entitlementId: string) => testApp.http.post(`/v1/entitlements/${entitlementId}/token`).set(bearer(key));

  beforeAll(async () => {
    testApp = await createTestApp(ENTITLEMENT_TEST_OVERRIDES);
    tenant = await testApp.createTenant('growth');
    other = await testApp.createTenant('growth');
    product = await insertProduct(testApp, tenant.merchantId, 'test');
    clock = controlClock(testApp);
  });

  afterAll(async () => {
    clock?.release();
    await testApp?.close();
  });

  it("issues an EdDSA token that verifies offline against the served JWKS and carries the check's entitlement", async () => {
    const entitlement = await grant(testApp, tenant.testKey, { store_customer_id: 'token_customer', product_id: product.id, metadata: { seat: 'A1' } });
    const response = await issue(tenant.testKey, entitlement.id).expect(200);
    const { token, expires_at: expiresAt } = response.body.data as { token: string; expires_at: string };

    const jwks = await testApp.http.get('/.well-known/jwks.json').expect(200);
    expect(jwks.headers['cache-control']).toBe('public, max-age=60');
    const keys = (jwks.body as JSONWebKeySet).keys;
    expect(keys.length).toBeGreaterThanOrEqual(1);
    for (const key of keys) {
      expect(key).toEqual({ kty: 'OKP', crv: 'Ed25519', x: expect.any(String), kid: expect.any(String), alg: 'EdDSA', use: 'sig' });
    }
    expect(keys.map((key) => key.kid)).toContain(decodeProtectedHeader(token).kid);

    const payload = await verify(testApp, token, clock.now());
    const check = await testApp.http
      .get(`/v1/entitlements/check?store_customer_id=token_customer&store_product_id=${product.store_product_id}`)
      .set(bearer(tenant.testKey))
      .expect(200);
    const issuedAt = Math.floor(clock.now().getTime() / 1000);
    expect(payload).toEqual({
      ...check.body.data.entitlement,
      iss: testApp.app.get(AppConfig).publicBaseUrl,
      aud: `${tenant.merchantId}:test`,
      sub: entitlement.customer_id,
      merchant: tenant.merchantId,
      livemode: false,
      customer_id: entitlement.customer_id,
      store_customer_id: 'token_customer',
      product_id: product.id,
      store_product_id: product.store_product_id,
      iat: issuedAt,
      exp: issuedAt + HOUR_SECONDS,
    });
    expect(payload).toMatchObject({ id: entitlement.id, status: 'active', access_type: 'direct', metadata: { seat: 'A1' }, expires_at: null });
    expect(expiresAt).toBe(new Date((issuedAt + HOUR_SECONDS) * 1000).toISOString());
    // A customer's app refuses it once it has expired.
    await expect(
      jwtVerify(token, createLocalJWKSet(jwks.body as JSONWebKeySet), { currentDate: new Date((issuedAt + HOUR_SECONDS + 1) * 1000) }),
    ).rejects.toMatchObject({ code: 'ERR_JWT_EXPIRED' });
  });

  it("expires with the entitlement when that comes before the TTL, and after the TTL otherwise", async () => {
    const now = clock.now();
    const soon = new Date(now.getTime() + 10 * 60_000 + 500);
    const shortLived = await grant(testApp, tenant.testKey, { store_customer_id: 'token_soon', product_id: product.id, expires_at: soon.toISOString() });
    const short = await issue(tenant.testKey, shortLived.id).expect(200);
    expect((await verify(testApp, short.body.data.token, now)).exp).toBe(Math.floor(soon.getTime() / 1000));
    expect(short.body.data.expires_at).toBe(new Date(Math.floor(soon.getTime() / 1000) * 1000).toISOString());

    const later = new Date(now.getTime() + 2 * HOUR_SECONDS * 1000);
    const longLived = await grant(testApp, tenant.testKey, { store_customer_id: 'token_later', product_id: product.id, expires_at: later.toISOString() });
    const long = await issue(tenant.testKey, longLived.id).expect(200);
    const payload = await verify(testApp, long.body.data.token, now);
    expect(payload.exp).toBe(Math.floor(now.getTime() / 1000) + HOUR_SECONDS);
    expect(payload.expires_at).toBe(later.toISOString());
  });

  it('refuses 403 ENTITLEMENT_NOT_ACTIVE for suspended, revoked, pending, time-expired and usage-expired entitlements', async () => {
    const suspended = await grant(testApp, tenant.testKey, { store_customer_id: 'token_suspended', product_id: product.id });
    await testApp.http.post(`/v1/entitlements/${suspended.id}/suspend`).set(bearer(tenant.testKey)).send({}).expect(200);
    const revoked = await grant(testApp, tenant.testKey, { store_customer_id: 'token_revoked', product_id: product.id });
    await testApp.http.post(`/v1/entitlements/${revoked.id}/revoke`).set(bearer(tenant.testKey)).send({}).expect(200);
    const pending = await grant(testApp, tenant.testKey, { store_customer_id: 'token_pending', product_id: product.id, status: 'pending' });
    const timed = await grant(testApp, tenant.testKey, {
      store_customer_id: 'token_timed',
      product_id: product.id,
      expires_at: new Date(clock.now().getTime() + 60_000).toISOString(),
    });
    const used = await grant(testApp, tenant.testKey, { store_customer_id: 'token_used', product_id: product.id, usage_limit: 1 });
    await testApp.http.post(`/v1/entitlements/${used.id}/usage`).set(bearer(tenant.testKey)).send({ quantity: 1 }).expect(200);
    clock.advance(61_000);

    for (const [entitlement, status] of [
      [suspended, 'suspended'],
      [revoked, 'revoked'],
      [pending, 'pending'],
      [timed, 'expired'],
      [used, 'expired'],
    ] as const) {
      const response = await issue(tenant.testKey, entitlement.id).expect(403);
      expect(response.body.error).toMatchObject({ type: 'permission_error', code: 'ENTITLEMENT_NOT_ACTIVE' });
      expect(response.body.error.message).toContain(status);
    }
  });

  it('adds a verifiable token to an entitled check with include_token=true, null when not entitled, nothing otherwise', async () => {
    const entitlement = await grant(testApp, tenant.testKey, { store_customer_id: 'token_check', product_id: product.id });
    const query = `customer_id=${entitlement.customer_id}&product_id=${product.id}`;
    const hit = await testApp.http.get(`/v1/entitlements/check?${query}&include_token=true`).set(bearer(tenant.testKey)).expect(200);
    expect(hit.body.data).toMatchObject({ entitled: true, entitlement: { id: entitlement.id }, token: expect.any(String) });
    const payload = await verify(testApp, hit.body.data.token, clock.now());
    expect(payload).toMatchObject({ ...hit.body.data.entitlement, customer_id: entitlement.customer_id, merchant: tenant.merchantId });

    const miss = await testApp.http
      .get(`/v1/entitlements/check?store_customer_id=nobody_here&product_id=${product.id}&include_token=true`)
      .set(bearer(tenant.testKey))
      .expect(200);
    expect(miss.body.data).toEqual({ entitled: false, entitlement: null, token: null });
    await testApp.http.post(`/v1/entitlements/${entitlement.id}/suspend`).set(bearer(tenant.testKey)).send({}).expect(200);
    const suspended = await testApp.http.get(`/v1/entitlements/check?${query}&include_token=true`).set(bearer(tenant.testKey)).expect(200);
    expect(suspended.body.data).toEqual({ entitled: false, entitlement: null, token: null });

    const other = await grant(testApp, tenant.testKey, { store_customer_id: 'token_check_plain', product_id: product.id });
    for (const suffix of ['', '&include_token=false']) {
      const plain = await testApp.http
        .get(`/v1/entitlements/check?customer_id=${other.customer_id}&product_id=${product.id}${suffix}`)
        .set(bearer(tenant.testKey))
        .expect(200);
      expect(plain.body.data.entitled).toBe(true);
      expect(plain.body.data).not.toHaveProperty('token');
    }
    const invalid = await testApp.http.get(`/v1/entitlements/check?${query}&include_token=yes`).set(bearer(tenant.testKey)).expect(400);
    expect(invalid.body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'include_token' });
  });

  it("fails, for a verifier pinning iss and aud as the README shows, another merchant's token and the other mode's", async () => {
    const otherProduct = await insertProduct(testApp, other.merchantId, 'test');
    const liveProduct = await insertProduct(testApp, tenant.merchantId, 'live');
    // Same store customer id everywhere: a verifier comparing store ids alone would accept all three.
    const own = await grant(testApp, tenant.testKey, { store_customer_id: 'token_shared_id', product_id: product.id });
    const foreign = await grant(testApp, other.testKey, { store_customer_id: 'token_shared_id', product_id: otherProduct.id });
    const live = await grant(testApp, tenant.liveKey, { store_customer_id: 'token_shared_id', product_id: liveProduct.id });
    const tokenOf = async (key: string, id: string) => (await issue(key, id).expect(200)).body.data.token as string;
    const keys = createLocalJWKSet(await fetchJwks(testApp));
    const pinned = { algorithms: ['EdDSA'], issuer: testApp.app.get(AppConfig).publicBaseUrl, audience: `${tenant.merchantId}:test`, currentDate: clock.now() };

    await expect(jwtVerify(await tokenOf(tenant.testKey, own.id), keys, pinned)).resolves.toMatchObject({ payload: { id: own.id } });
    for (const token of [await tokenOf(other.testKey, foreign.id), await tokenOf(tenant.liveKey, live.id)]) {
      await expect(jwtVerify(token, keys, pinned)).rejects.toMatchObject({ code: 'ERR_JWT_CLAIM_VALIDATION_FAILED', claim: 'aud' });
      // The SDK's verification refuses them the same way.
      await expect(
        verifyEntitlementToken(token, { jwks: await fetchJwks(testApp), issuer: pinned.issuer, merchant: tenant.merchantId, mode: 'test', currentDate: clock.now() }),
      ).rejects.toMatchObject({ reason: 'WRONG_AUDIENCE' });
    }
  });

  it("answers 404 for another merchant's or the other mode's entitlement, and for unknown or malformed ids", async () => {
    const entitlement = await grant(testApp, tenant.testKey, { store_customer_id: 'token_isolated', product_id: product.id });
    for (const [key, id] of [
      [other.testKey, entitlement.id],
      [tenant.liveKey, entitlement.id],
      [tenant.testKey, 'ent_01jd8x3k2m4n5p6q7r8s9t0v1w'],
      [tenant.testKey, 'not-an-id'],
    ] as const) {
      const response = await issue(key, id).expect(404);
      expect(response.body.error.code).toBe('ENTITLEMENT_NOT_FOUND');
    }
  });

  it('needs entitlements:read for a token; the JWKS is public', async () => {
    const entitlement = await grant(testApp, tenant.testKey, { store_customer_id: 'token_scoped', product_id: product.id });
    const writer = await testApp.createKey(tenant.merchantId, 'test', ['entitlements:write']);
    const reader = await testApp.createKey(tenant.merchantId, 'test', ['entitlements:read']);
    const refused = await issue(writer, entitlement.id).expect(403);
    expect(refused.body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE' });
    expect(refused.body.error.message).toContain('entitlements:read');
    await issue(reader, entitlement.id).expect(200);
    await testApp.http.post(`/v1/entitlements/${entitlement.id}/token`).expect(401);
    await testApp.http.get('/.well-known/jwks.json').expect(200);
  });
});

describe('signed entitlement tokens: key rotation', () => {
  let dataDirectory = '';
  let testApp: TestApp | null = null;

  /** An app on the case's DATA_DIR; a second one opens the same directory after the first closed. */
  const openApp = async (overrides: Record<string, string> = {}) => {
    testApp = await createTestApp({ DATA_DIR: dataDirectory, ...overrides });
    return testApp;
  };
  const closeApp = async () => {
    await testApp?.close();
    testApp = null;
  };
  const tokenFrom = async (app: TestApp): Promise<string> => {
    const tenant = await app.createTenant('free');
    const product = await insertProduct(app, tenant.merchantId, 'test');
    const entitlement = await grant(app, tenant.testKey, { store_customer_id: 'rotation_customer', product_id: product.id });
    return (await app.http.post(`/v1/entitlements/${entitlement.id}/token`).set(bearer(tenant.testKey)).expect(200)).body.data.token;
  };

  // Each case starts from a DATA_DIR of its own (keys, and the embedded database when there is no server).
  beforeEach(() => {
    dataDirectory = mkdtempSync(path.join(tmpdir(), 'eh-token-keys-'));
  });
  afterEach(async () => {
    await closeApp();
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  it('signing-keys:rotate switches a running service to a new kid while tokens of the old key keep verifying', async () => {
    const app = await openApp();
    const oldToken = await tokenFrom(app);
    const oldKid = decodeProtectedHeader(oldToken).kid;

    const rotated = await new Promise<{ kid: string; retired_kid: string }>((resolve, reject) => {
      execFile(
        process.execPath,
        ['-r', 'ts-node/register/transpile-only', path.join(REPOSITORY, 'src', 'cli', 'main.ts'), 'signing-keys:rotate'],
        { cwd: REPOSITORY, env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDirectory }, timeout: 60_000 },
        (error, stdout, stderr) => (error ? reject(new Error(`${error.message}: ${stderr}`)) : resolve(JSON.parse(stdout))),
      );
    });
    expect(rotated.retired_kid).toBe(oldKid);
    expect(rotated.kid).not.toBe(oldKid);

    // The running service picks the new key up by itself (it looks every 5 s).
    await eventually(async () => (await fetchJwks(app)).keys[0]?.kid === rotated.kid, 8_000, 250);
    expect((await fetchJwks(app)).keys.map((key) => key.kid)).toEqual([rotated.kid, oldKid]);
    const newToken = await tokenFrom(app);
    expect(decodeProtectedHeader(newToken).kid).toBe(rotated.kid);
    await expect(verify(app, newToken, new Date())).resolves.toMatchObject({ status: 'active' });
    await expect(verify(app, oldToken, new Date())).resolves.toMatchObject({ status: 'active' });
  }, 60_000);

  it('a changed ENTITLEMENT_SIGNING_KEY is a rotation: the old key stays published after the restart', async () => {
    const first = await openApp({ ENTITLEMENT_SIGNING_KEY: ed25519Pem() });
    const oldToken = await tokenFrom(first);
    await closeApp();

    // Newlines written as \n, as in a one-line .env entry.
    const second = await openApp({ ENTITLEMENT_SIGNING_KEY: ed25519Pem().replace(/\n/g, '\\n') });
    const newToken = await tokenFrom(second);
    const kids = (await fetchJwks(second)).keys.map((key) => key.kid);
    expect(kids).toEqual([decodeProtectedHeader(newToken).kid, decodeProtectedHeader(oldToken).kid]);
    await expect(verify(second, oldToken, new Date())).resolves.toBeDefined();
    await expect(verify(second, newToken, new Date())).resolves.toBeDefined();
  }, 60_000);

  it('refuses to start with an ENTITLEMENT_SIGNING_KEY that is not an Ed25519 private key, naming the variable', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    await expect(openApp({ ENTITLEMENT_SIGNING_KEY: rsa })).rejects.toThrow(/ENTITLEMENT_SIGNING_KEY: must be an Ed25519 private key/);
  });
});
