import { generateKeyPairSync, KeyObject } from 'node:crypto';
import { TokenVerificationError, verifyEntitlementToken } from '@entitlement-delivery/sdk';
import { exportJWK, JSONWebKeySet, SignJWT } from 'jose';
import { buildEntitlementTokenClaims } from '../../src/entitlements/tokens/entitlement-token-claims';

/**
 * The SDK's tokens.verify on tokens built by the service's own claim builder and signed as the
 * service signs them; the served-token path (real JWKS, real merchants and modes) is in
 * test/e2e/entitlement-tokens.e2e-spec.ts and test/e2e/sdk.e2e-spec.ts.
 */
const ISSUER = 'https://entitlements.example.com';
const MERCHANT = 'mer_01jd8x3k2m4n5p6q7r8s9t0v1w';
const OTHER_MERCHANT = 'mer_01jd8x3k2m4n5p6q7r8s9t0v2x';
const now = new Date('2026-03-01T12:00:00Z');

interface Key {
  privateKey: KeyObject;
  kid: string;
}

function newKey(kid: string): Key {
  return { privateKey: generateKeyPairSync('ed25519').privateKey, kid };
}

async function jwksOf(...keys: Key[]): Promise<JSONWebKeySet> {
  return {
    keys: await Promise.all(
      keys.map(async (key) => ({ ...(await exportJWK(key.privateKey)), d: undefined, kid: key.kid, alg: 'EdDSA', use: 'sig' })),
    ),
  };
}

function token(key: Key, overrides: { merchant?: string; mode?: 'live' | 'test'; issuer?: string; expiresAt?: string | null } = {}): Promise<string> {
  const claims = buildEntitlementTokenClaims(
    {
      issuer: overrides.issuer ?? ISSUER,
      entitlement: {
        id: 'ent_1',
        product_id: 'prod_1',
        status: 'active',
        granted_at: '2026-01-15T10:30:00.000Z',
        expires_at: overrides.expiresAt ?? null,
        metadata: {},
        access_type: 'direct',
      },
      merchantId: overrides.merchant ?? MERCHANT,
      mode: overrides.mode ?? 'test',
      customerId: 'cus_1',
      storeCustomerId: 'store_cust_1',
      storeProductId: 'sku_1',
    },
    now,
    3_600_000,
  );
  return new SignJWT({ ...claims }).setProtectedHeader({ alg: 'EdDSA', kid: key.kid, typ: 'JWT' }).sign(key.privateKey);
}

async function reason(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TokenVerificationError);
  return (error as TokenVerificationError).reason;
}

describe('SDK tokens.verify', () => {
  const key = newKey('key-1');
  let jwks: JSONWebKeySet;
  const options = () => ({ jwks, issuer: ISSUER, merchant: MERCHANT, mode: 'test' as const, currentDate: now });

  beforeAll(async () => {
    jwks = await jwksOf(key);
  });

  it('returns the typed claims of a token for this merchant and mode', async () => {
    const claims = await verifyEntitlementToken(await token(key), { ...options(), productId: 'prod_1', storeCustomerId: 'store_cust_1' });
    expect(claims).toMatchObject({ iss: ISSUER, aud: `${MERCHANT}:test`, sub: 'cus_1', id: 'ent_1', status: 'active', product_id: 'prod_1', livemode: false });
  });

  it("refuses another merchant's token and the other mode's, whatever ids they carry", async () => {
    expect(await reason(verifyEntitlementToken(await token(key, { merchant: OTHER_MERCHANT }), options()))).toBe('WRONG_AUDIENCE');
    expect(await reason(verifyEntitlementToken(await token(key, { mode: 'live' }), options()))).toBe('WRONG_AUDIENCE');
    expect(await reason(verifyEntitlementToken(await token(key), { ...options(), mode: 'live' }))).toBe('WRONG_AUDIENCE');
  });

  it('refuses another issuer, an expired token, another product or customer, and a key it does not know', async () => {
    expect(await reason(verifyEntitlementToken(await token(key, { issuer: 'https://evil.example.com' }), options()))).toBe('WRONG_ISSUER');
    expect(await reason(verifyEntitlementToken(await token(key), { ...options(), currentDate: new Date(now.getTime() + 3_601_000) }))).toBe('EXPIRED');
    expect(await reason(verifyEntitlementToken(await token(key), { ...options(), productId: 'prod_2' }))).toBe('WRONG_PRODUCT');
    expect(await reason(verifyEntitlementToken(await token(key), { ...options(), storeProductId: 'sku_2' }))).toBe('WRONG_PRODUCT');
    expect(await reason(verifyEntitlementToken(await token(key), { ...options(), customerId: 'cus_2' }))).toBe('WRONG_CUSTOMER');
    expect(await reason(verifyEntitlementToken(await token(newKey('key-2')), options()))).toBe('UNKNOWN_KEY');
    // Another key published under the signer's kid: the signature is what fails.
    expect(await reason(verifyEntitlementToken(await token(newKey('key-1')), options()))).toBe('INVALID_SIGNATURE');
    expect(await reason(verifyEntitlementToken('not.a.token', options()))).toBe('INVALID_TOKEN');
  });

  it('needs an issuer when the key set is not its URL (the URL case: test/e2e/sdk.e2e-spec.ts)', async () => {
    await expect(verifyEntitlementToken(await token(key), { jwks, merchant: MERCHANT, mode: 'test', currentDate: now })).rejects.toThrow(TypeError);
  });
});
