import { createEntitlementDeliveryClient, TokenVerificationError, verifyEntitlementToken } from '@entitlement-delivery/sdk';
import { decodeJwt } from 'jose';
import { grant, insertProduct } from '../support/entitlement-fixtures';
import { freePort } from '../support/free-port';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';

/**
 * A client that reaches the service by another URL than its PUBLIC_BASE_URL (here 127.0.0.1
 * beside the default-style `localhost`) verifies tokens with no `issuer` option: the SDK reads the
 * issuer the service publishes beside its JWKS (DESIGN §20), instead of taking its own baseUrl.
 */
describe('SDK tokens.verify with the issuer the service publishes', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let port: number;
  let publicBaseUrl: string;
  let reachedAt: string;

  beforeAll(async () => {
    port = await freePort();
    publicBaseUrl = `http://localhost:${port}`;
    reachedAt = `http://127.0.0.1:${port}`;
    testApp = await createTestApp({ PUBLIC_BASE_URL: publicBaseUrl });
    await testApp.app.listen(port, '127.0.0.1');
    tenant = await testApp.createTenant('growth');
  });
  afterAll(() => testApp.close());

  it('publishes the issuer and the key set at /.well-known/entitlement-token-issuer.json, to anyone', async () => {
    const response = await fetch(`${reachedAt}/.well-known/entitlement-token-issuer.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(await response.json()).toEqual({
      issuer: publicBaseUrl,
      jwks_uri: `${publicBaseUrl}/.well-known/jwks.json`,
      id_token_signing_alg_values_supported: ['EdDSA'],
      audience_format: '{merchant id}:{live|test}',
    });
  });

  it('verifies a token through a client on 127.0.0.1 with no issuer option, and still refuses another issuer', async () => {
    const product = await insertProduct(testApp, tenant.merchantId, 'test');
    const entitlement = await grant(testApp, tenant.testKey, { store_customer_id: 'issuer_customer', product_id: product.id });
    const { token } = (await testApp.http.post(`/v1/entitlements/${entitlement.id}/token`).set(bearer(tenant.testKey)).expect(200)).body.data as { token: string };
    expect(decodeJwt(token).iss).toBe(publicBaseUrl);

    const client = createEntitlementDeliveryClient({ baseUrl: reachedAt, apiKey: tenant.testKey });
    await expect(client.tokens.verify(token, { merchant: tenant.merchantId, mode: 'test' })).resolves.toMatchObject({ iss: publicBaseUrl, id: entitlement.id });
    // Standalone, from the JWKS URL the customer's app reaches.
    await expect(verifyEntitlementToken(token, { jwks: `${reachedAt}/.well-known/jwks.json`, merchant: tenant.merchantId, mode: 'test' })).resolves.toMatchObject({ id: entitlement.id });
    // An issuer given explicitly still wins: the old default (the URL the client uses) is refused.
    const refused = await client.tokens.verify(token, { merchant: tenant.merchantId, mode: 'test', issuer: reachedAt }).catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(TokenVerificationError);
    expect(refused).toMatchObject({ reason: 'WRONG_ISSUER' });
  });
});
