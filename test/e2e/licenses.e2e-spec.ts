import { createEntitlementDeliveryClient, isApiError, TokenVerificationError, verifyLicenseFile, type EntitlementDeliveryClient } from '@entitlement-delivery/sdk';
import { DataSource } from 'typeorm';
import { LicenseActivationSweeper } from '../../src/license-records/license-activation.sweeper';
import { freePort } from '../support/free-port';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';

/**
 * License keys and device activations (DESIGN §18, issue 32): the whole life of a key through the
 * SDK as a seller's backend and a customer's app use it, keys from every grant path, isolation,
 * the activation limit under a race, floating seats on a test clock and on real time, and CORS.
 */
describe('license keys', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let baseUrl: string;

  beforeAll(async () => {
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    testApp = await createTestApp({ PUBLIC_BASE_URL: baseUrl });
    await testApp.app.listen(port, '127.0.0.1');
    tenant = await testApp.createTenant('free');
  });
  afterAll(() => testApp.close());

  const seller = (apiKey: string): EntitlementDeliveryClient => createEntitlementDeliveryClient({ baseUrl, apiKey, initialRetryDelay: 10 });
  /** The customer's app: no API key at all. */
  const app = (): EntitlementDeliveryClient => createEntitlementDeliveryClient({ baseUrl, initialRetryDelay: 10 });

  async function licensedProduct(sdk: EntitlementDeliveryClient, license: { activation_limit?: number | null; activation_ttl_seconds?: number | null }, extra: Record<string, unknown> = {}): Promise<string> {
    const { data } = await sdk.products.create({
      name: 'Desktop app',
      entitlement_type: 'permanent',
      fulfillment_config: { delivery_method: 'URL', access_url: 'https://example.com/download' },
      license,
      ...extra,
    });
    return data.id;
  }

  async function keyOf(sdk: EntitlementDeliveryClient, entitlementId: string): Promise<{ id: string; key: string }> {
    const { data } = await sdk.licenseKeys.list({ entitlement_id: entitlementId });
    expect(data).toHaveLength(1);
    return data[0];
  }

  async function codeOf(promise: Promise<unknown>): Promise<string> {
    try {
      await promise;
    } catch (error) {
      if (isApiError(error)) return error.code;
      throw error;
    }
    throw new Error('expected the call to fail');
  }

  it('lives through grant → validate → activate ×limit → 409 → deactivate → activate → revoke → REVOKED, with an offline license file', async () => {
    const sdk = seller(tenant.testKey);
    const productId = await licensedProduct(sdk, { activation_limit: 3 }, { store_product_id: 'sku_desktop_life' });
    expect((await sdk.products.get(productId)).data.license).toEqual({ activation_limit: 3, activation_ttl_seconds: null });
    const { data: entitlement } = await sdk.entitlements.create({ store_customer_id: 'buyer_life', product_id: productId });
    const license = await keyOf(sdk, entitlement.id);
    expect(license.key).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){4}$/);
    expect((await sdk.licenseKeys.get(license.id)).data).toMatchObject({ status: 'active', activation_limit: 3, activations_count: 0, entitlement_id: entitlement.id, product_id: productId });

    const customerApp = app();
    const fresh = await customerApp.licenses.validate({ key: license.key });
    expect(fresh.data).toMatchObject({ valid: true, code: 'VALID', license: { id: license.id, store_product_id: 'sku_desktop_life', status: 'active', activation_limit: 3, activations_count: 0 }, activation: null });
    // Typed by a person: lower case, no dashes, O for 0 and L for 1 still name the key.
    const retyped = license.key.replace(/-/g, '').toLowerCase().replace(/0/g, 'o').replace(/1/g, 'l');
    expect((await customerApp.licenses.validate({ key: retyped })).data.code).toBe('VALID');
    expect((await customerApp.licenses.validate({ key: license.key, fingerprint: 'machine-1' })).data).toMatchObject({ valid: false, code: 'NOT_ACTIVATED' });

    const files: string[] = [];
    for (const fingerprint of ['machine-1', 'machine-2', 'machine-3']) {
      const activated = await customerApp.licenses.activate({ key: license.key, fingerprint, name: `Computer ${fingerprint}` });
      expect(activated.lastResponse.status).toBe(201);
      expect(activated.data.activation).toMatchObject({ fingerprint, name: `Computer ${fingerprint}`, license_key_id: license.id });
      files.push(activated.data.license_file);
    }
    const again = await customerApp.licenses.activate({ key: license.key, fingerprint: 'machine-1' });
    expect(again.lastResponse.status).toBe(200);
    expect(await codeOf(customerApp.licenses.activate({ key: license.key, fingerprint: 'machine-4' }))).toBe('ACTIVATION_LIMIT_REACHED');
    expect((await customerApp.licenses.validate({ key: license.key, fingerprint: 'machine-2' })).data).toMatchObject({ valid: true, code: 'VALID', license: { activations_count: 3 } });

    // The app runs offline on its license file, and refuses one made for another machine.
    const { lastResponse: _ignored, ...jwks } = await sdk.entitlements.getSigningKeys();
    const verified = await verifyLicenseFile(files[0], { jwks, issuer: baseUrl, merchant: tenant.merchantId, mode: 'test', fingerprint: 'machine-1', productId });
    expect(verified).toMatchObject({ license_id: license.id, fingerprint: 'machine-1', sub: entitlement.customer_id, aud: `${tenant.merchantId}:test` });
    const wrongMachine = await verifyLicenseFile(files[0], { jwks, issuer: baseUrl, merchant: tenant.merchantId, mode: 'test', fingerprint: 'machine-2' }).catch((error: unknown) => error);
    expect(wrongMachine).toBeInstanceOf(TokenVerificationError);
    expect((wrongMachine as TokenVerificationError).reason).toBe('WRONG_MACHINE');
    // Another mode's (or merchant's) app refuses it: aud names the merchant and mode.
    const otherMode = await verifyLicenseFile(files[0], { jwks, issuer: baseUrl, merchant: tenant.merchantId, mode: 'live', fingerprint: 'machine-1' }).catch((error: unknown) => error);
    expect((otherMode as TokenVerificationError).reason).toBe('WRONG_AUDIENCE');

    expect((await customerApp.licenses.deactivate({ key: license.key, fingerprint: 'machine-2' })).data).toMatchObject({ deactivated: true });
    expect(await codeOf(customerApp.licenses.deactivate({ key: license.key, fingerprint: 'machine-2' }))).toBe('ACTIVATION_NOT_FOUND');
    expect((await customerApp.licenses.activate({ key: license.key, fingerprint: 'machine-4' })).lastResponse.status).toBe(201);
    expect((await customerApp.licenses.heartbeat({ key: license.key, fingerprint: 'machine-4' })).data.activation.fingerprint).toBe('machine-4');

    // The merchant sees the devices, frees one, and gives this customer a limit of its own.
    const { data: devices } = await sdk.licenseKeys.listActivations(license.id);
    expect(devices.map((device) => device.fingerprint).sort()).toEqual(['machine-1', 'machine-3', 'machine-4']);
    await sdk.licenseKeys.deleteActivation(license.id, devices.find((device) => device.fingerprint === 'machine-3')!.id);
    expect((await sdk.licenseKeys.update(license.id, { activation_limit: 5 })).data).toMatchObject({ activation_limit: 5, activations_count: 2 });

    await sdk.entitlements.revoke(entitlement.id, { reason: 'refunded' });
    expect((await customerApp.licenses.validate({ key: license.key, fingerprint: 'machine-1' })).data).toMatchObject({ valid: false, code: 'REVOKED', license: { status: 'revoked' } });
    expect(await codeOf(customerApp.licenses.activate({ key: license.key, fingerprint: 'machine-9' }))).toBe('ENTITLEMENT_NOT_ACTIVE');
    expect((await sdk.licenseKeys.get(license.id)).data.status).toBe('revoked');

    const types = async (type: 'license_key.created' | 'license.activated' | 'license.deactivated') => (await sdk.events.list({ type })).data.map((event) => event.data.object as Record<string, unknown>);
    expect((await types('license_key.created')).find((object) => object.id === license.id)).toMatchObject({ key: license.key, entitlement_id: entitlement.id });
    expect((await types('license.activated')).filter((object) => object.license_key_id === license.id)).toHaveLength(4);
    expect((await types('license.deactivated')).filter((object) => object.license_key_id === license.id).map((object) => object.fingerprint).sort()).toEqual(['machine-2', 'machine-3']);
  });

  it('issues keys from orders and to bundle children whose product issues them, and none for other products', async () => {
    const sdk = seller(tenant.testKey);
    const licensed = await licensedProduct(sdk, { activation_limit: 2 }, { store_product_id: 'sku_plugin' });
    const plain = (await sdk.products.create({ name: 'Manual', entitlement_type: 'permanent', fulfillment_config: { delivery_method: 'URL', access_url: 'https://example.com/m' } })).data.id;
    const bundle = (await sdk.products.create({ name: 'Suite', entitlement_type: 'permanent', included_product_ids: [licensed, plain] })).data.id;

    const { data: parent } = await sdk.entitlements.create({ store_customer_id: 'buyer_bundle', product_id: bundle });
    const { data: children } = await sdk.licenseKeys.list({ customer_id: parent.customer_id });
    expect(children).toHaveLength(1);
    expect(children[0]).toMatchObject({ product_id: licensed, status: 'active', activation_limit: 2 });
    expect((await app().licenses.validate({ key: children[0].key })).data.code).toBe('VALID');

    const { data: order } = await sdk.orders.upsert({ store_order_id: 'order_licensed', store_customer_id: 'buyer_order', line_items: [{ store_line_item_id: 'li_1', store_product_id: 'sku_plugin' }] });
    const orderKey = await keyOf(sdk, order.line_items[0].entitlement_id!);
    expect((await app().licenses.validate({ key: orderKey.key })).data).toMatchObject({ code: 'VALID', license: { product_id: licensed } });
    await sdk.orders.refund(order.id, {});
    expect((await app().licenses.validate({ key: orderKey.key })).data.code).toBe('REVOKED');

    const { data: unlicensed } = await sdk.entitlements.create({ store_customer_id: 'buyer_plain', product_id: plain });
    expect((await sdk.licenseKeys.list({ entitlement_id: unlicensed.id })).data).toEqual([]);

    // The product's config is checked, and a change affects later grants only.
    const base = { name: 'Bad', entitlement_type: 'permanent' };
    for (const license of [{ activation_limit: 0 }, { activation_limit: 100_001 }, { activation_ttl_seconds: 59 }, { activation_ttl_seconds: 2_592_001 }]) {
      const refused = await testApp.http.post('/v1/products').set(bearer(tenant.testKey)).send({ ...base, license }).expect(400);
      expect(refused.body.error.message).toMatch(/activation_(limit|ttl_seconds)/);
    }
    expect((await sdk.products.update(licensed, { license: null })).data.license).toBeNull();
    const { data: afterChange } = await sdk.entitlements.create({ store_customer_id: 'buyer_after_change', product_id: licensed });
    expect((await sdk.licenseKeys.list({ entitlement_id: afterChange.id })).data).toEqual([]);
    expect((await app().licenses.validate({ key: children[0].key })).data.code).toBe('VALID');
  });

  it("answers 404 for another merchant's or mode's key id on every merchant route, and needs the licenses scopes", async () => {
    const sdk = seller(tenant.testKey);
    const productId = await licensedProduct(sdk, { activation_limit: 1 });
    const { data: entitlement } = await sdk.entitlements.create({ store_customer_id: 'buyer_isolated', product_id: productId });
    const license = await keyOf(sdk, entitlement.id);
    const { data: activated } = await app().licenses.activate({ key: license.key, fingerprint: 'machine-iso' });
    const other = await testApp.createTenant('free');
    for (const key of [other.testKey, other.liveKey, tenant.liveKey]) {
      const headers = bearer(key);
      await testApp.http.get(`/v1/license-keys/${license.id}`).set(headers).expect(404);
      await testApp.http.patch(`/v1/license-keys/${license.id}`).set(headers).send({ activation_limit: 9 }).expect(404);
      await testApp.http.get(`/v1/license-keys/${license.id}/activations`).set(headers).expect(404);
      const deleted = await testApp.http.delete(`/v1/license-keys/${license.id}/activations/${activated.activation.id}`).set(headers).expect(404);
      expect(deleted.body.error.code).toBe('LICENSE_KEY_NOT_FOUND');
      expect((await testApp.http.get(`/v1/license-keys?entitlement_id=${entitlement.id}`).set(headers).expect(200)).body.data).toEqual([]);
    }
    await testApp.http.get('/v1/license-keys/lic_nonsense').set(bearer(tenant.testKey)).expect(404);
    await testApp.http.delete(`/v1/license-keys/${license.id}/activations/act_nonsense`).set(bearer(tenant.testKey)).expect(404);
    expect((await sdk.licenseKeys.get(license.id)).data.activation_limit).toBe(1);

    const readOnly = await testApp.createKey(tenant.merchantId, 'test', ['licenses:read']);
    await testApp.http.get(`/v1/license-keys/${license.id}`).set(bearer(readOnly)).expect(200);
    const refused = await testApp.http.patch(`/v1/license-keys/${license.id}`).set(bearer(readOnly)).send({ activation_limit: 2 }).expect(403);
    expect(refused.body.error.message).toContain('licenses:write');
    const none = await testApp.createKey(tenant.merchantId, 'test', ['entitlements:read']);
    await testApp.http.get('/v1/license-keys').set(bearer(none)).expect(403);
  });

  it('lets exactly 5 of 50 racing devices in for a limit of 5', async () => {
    const sdk = seller(tenant.testKey);
    const productId = await licensedProduct(sdk, { activation_limit: 5 });
    const { data: entitlement } = await sdk.entitlements.create({ store_customer_id: 'buyer_race', product_id: productId });
    const license = await keyOf(sdk, entitlement.id);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) => testApp.http.post('/v1/licenses/activate').send({ key: license.key, fingerprint: `racer-${index}` })),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(5);
    expect(statuses.filter((status) => status === 409)).toHaveLength(45);
    expect(answers.filter((answer) => answer.status === 409).every((answer) => answer.body.error.code === 'ACTIVATION_LIMIT_REACHED')).toBe(true);
    expect((await sdk.licenseKeys.get(license.id)).data.activations_count).toBe(5);
    // The same device racing itself gets one activation.
    const same = await Promise.all(Array.from({ length: 10 }, () => testApp.http.post('/v1/licenses/activate').send({ key: license.key, fingerprint: 'racer-0' })));
    expect(same.every((answer) => answer.status === 200 && answer.body.data.activation.fingerprint === 'racer-0')).toBe(true);
    expect((await sdk.licenseKeys.get(license.id)).data.activations_count).toBe(5);
  });

  it("releases a floating seat not seen for activation_ttl_seconds: at a test clock's time, and on real time", async () => {
    const sdk = seller(tenant.testKey);
    const productId = await licensedProduct(sdk, { activation_limit: 1, activation_ttl_seconds: 60 });
    const start = new Date('2031-01-01T00:00:00.000Z');
    const { data: clock } = await sdk.testClocks.create({ frozen_time: start.toISOString() });
    const { data: entitlement } = await sdk.entitlements.create({ store_customer_id: 'buyer_clock', product_id: productId, test_clock: clock.id });
    const license = await keyOf(sdk, entitlement.id);
    const device = { key: license.key, fingerprint: 'laptop' };
    const { data: activated } = await app().licenses.activate(device);
    expect(activated.activation.last_seen_at).toBe(start.toISOString());
    const at = (seconds: number) => new Date(start.getTime() + seconds * 1000).toISOString();

    await sdk.testClocks.advance(clock.id, { frozen_time: at(50) });
    expect((await app().licenses.heartbeat(device)).data.activation.last_seen_at).toBe(at(50));
    await sdk.testClocks.advance(clock.id, { frozen_time: at(100) });
    expect((await app().licenses.validate(device)).data.code).toBe('VALID');
    await sdk.testClocks.advance(clock.id, { frozen_time: at(111) });
    expect((await app().licenses.validate(device)).data).toMatchObject({ code: 'NOT_ACTIVATED', license: { activations_count: 0 } });
    expect(await codeOf(app().licenses.heartbeat(device))).toBe('ACTIVATION_NOT_FOUND');
    const expired = (await sdk.events.list({ type: 'license.activation_expired' })).data.map((event) => event.data.object as Record<string, unknown>);
    expect(expired.filter((object) => object.id === activated.activation.id)).toHaveLength(1);
    // The seat is free again: another device takes it.
    expect((await app().licenses.activate({ key: license.key, fingerprint: 'desktop' })).lastResponse.status).toBe(201);

    // Real time: the sweeper releases what was not seen for the TTL, and only that.
    const { data: realEntitlement } = await sdk.entitlements.create({ store_customer_id: 'buyer_real', product_id: productId });
    const realKey = await keyOf(sdk, realEntitlement.id);
    const { data: stale } = await app().licenses.activate({ key: realKey.key, fingerprint: 'stale' });
    const { data: recentEntitlement } = await sdk.entitlements.create({ store_customer_id: 'buyer_recent', product_id: productId });
    const recentKey = await keyOf(sdk, recentEntitlement.id);
    await app().licenses.activate({ key: recentKey.key, fingerprint: 'recent' });
    await testApp.app.get(DataSource).query(`UPDATE license_activations SET last_seen_at = now() - interval '61 seconds' WHERE id = $1`, [stale.activation.id]);
    await testApp.app.get(LicenseActivationSweeper).sweep();
    expect((await app().licenses.validate({ key: realKey.key, fingerprint: 'stale' })).data.code).toBe('NOT_ACTIVATED');
    expect((await app().licenses.validate({ key: recentKey.key, fingerprint: 'recent' })).data.code).toBe('VALID');
    // The test clock's activation is the clock's to release, whatever real time says.
    expect((await app().licenses.validate({ key: license.key, fingerprint: 'desktop' })).data.code).toBe('VALID');
  });

  it('opens CORS on the app routes only, errors included, and needs no API key there', async () => {
    const preflight = await testApp.http.options('/v1/licenses/activate').set('Origin', 'https://app.example').set('Access-Control-Request-Method', 'POST').expect(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-methods']).toContain('POST');
    const unknown = await testApp.http.post('/v1/licenses/validate').set('Origin', 'https://app.example').send({ key: 'AAAAA-AAAAA-AAAAA-AAAAA-AAAAA' }).expect(404);
    expect(unknown.headers['access-control-allow-origin']).toBe('*');
    expect(unknown.body.error.code).toBe('LICENSE_KEY_NOT_FOUND');
    const invalid = await testApp.http.post('/v1/licenses/activate').send({ key: 'AAAAA' }).expect(400);
    expect(invalid.headers['access-control-allow-origin']).toBe('*');
    const merchant = await testApp.http.get('/v1/license-keys').set(bearer(tenant.testKey)).set('Origin', 'https://app.example').expect(200);
    expect(merchant.headers['access-control-allow-origin']).toBeUndefined();
    // An API key sent along changes nothing: the route ignores it, the key in the body decides.
    await testApp.http.post('/v1/licenses/validate').set(bearer('eh_test_not_a_key')).send({ key: 'AAAAA-AAAAA-AAAAA-AAAAA-AAAAA' }).expect(404);
  });
});
