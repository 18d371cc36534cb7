import { buildEntitlementTokenClaims, entitlementTokenAudience, TokenSubject } from '../../src/entitlements/tokens/entitlement-token-claims';

const HOUR = 3_600_000;

function subject(expiresAt: string | null, mode: 'test' | 'live' = 'test'): TokenSubject {
  return {
    issuer: 'https://entitlements.example.com',
    entitlement: {
      id: 'ent_01jd8x3k2m4n5p6q7r8s9t0v1w',
      product_id: 'prod_01jd8x3k2m4n5p6q7r8s9t0v1w',
      status: 'active',
      granted_at: '2026-01-15T10:30:00.000Z',
      expires_at: expiresAt,
      metadata: { seat: 3 },
      access_type: 'direct',
    },
    merchantId: 'mer_01jd8x3k2m4n5p6q7r8s9t0v1w',
    mode,
    customerId: 'cus_01jd8x3k2m4n5p6q7r8s9t0v1w',
    storeCustomerId: 'store_cust_1001',
    storeProductId: 'sku_ebook_42',
  };
}

describe('buildEntitlementTokenClaims', () => {
  const now = new Date('2026-03-01T12:00:00.750Z');
  const issuedAt = Math.floor(now.getTime() / 1000);

  it("carries the check's entitlement, who it is for, and iat/exp in whole seconds", () => {
    expect(buildEntitlementTokenClaims(subject(null), now, HOUR)).toEqual({
      id: 'ent_01jd8x3k2m4n5p6q7r8s9t0v1w',
      product_id: 'prod_01jd8x3k2m4n5p6q7r8s9t0v1w',
      status: 'active',
      granted_at: '2026-01-15T10:30:00.000Z',
      expires_at: null,
      metadata: { seat: 3 },
      access_type: 'direct',
      iss: 'https://entitlements.example.com',
      aud: 'mer_01jd8x3k2m4n5p6q7r8s9t0v1w:test',
      sub: 'cus_01jd8x3k2m4n5p6q7r8s9t0v1w',
      merchant: 'mer_01jd8x3k2m4n5p6q7r8s9t0v1w',
      livemode: false,
      customer_id: 'cus_01jd8x3k2m4n5p6q7r8s9t0v1w',
      store_customer_id: 'store_cust_1001',
      store_product_id: 'sku_ebook_42',
      iat: issuedAt,
      exp: issuedAt + 3600,
    });
  });

  it("a customer's clock in the future: iat is real now and exp no later than real now + the TTL", () => {
    const clockNow = new Date('2027-06-01T00:00:00.000Z');
    const claims = buildEntitlementTokenClaims(subject('2027-07-01T00:00:00.000Z'), clockNow, HOUR, now);
    expect(claims.iat).toBe(issuedAt);
    expect(claims.exp).toBe(Math.floor((now.getTime() + HOUR) / 1000));
  });

  it("a customer's clock in the past keeps the clock's time", () => {
    const clockNow = new Date('2024-09-01T08:00:00.000Z');
    const claims = buildEntitlementTokenClaims(subject(null), clockNow, HOUR, now);
    expect(claims.iat).toBe(clockNow.getTime() / 1000);
    expect(claims.exp).toBe(clockNow.getTime() / 1000 + 3600);
  });

  it('lasts the TTL when the entitlement lasts longer', () => {
    const claims = buildEntitlementTokenClaims(subject('2026-03-01T14:00:00.000Z'), now, HOUR);
    expect(claims.exp).toBe(Math.floor((now.getTime() + HOUR) / 1000));
  });

  it("ends at the entitlement's expires_at (rounded down) when that comes first", () => {
    const claims = buildEntitlementTokenClaims(subject('2026-03-01T12:10:00.999Z'), now, HOUR);
    expect(claims.exp).toBe(Math.floor(Date.parse('2026-03-01T12:10:00.999Z') / 1000));
    expect(claims.exp).toBeLessThan(issuedAt + 3600);
  });

  it('follows the configured TTL and the mode, which the audience names', () => {
    const claims = buildEntitlementTokenClaims(subject(null, 'live'), now, 5 * 60_000);
    expect(claims.exp - claims.iat).toBe(300);
    expect(claims.livemode).toBe(true);
    expect(claims.aud).toBe('mer_01jd8x3k2m4n5p6q7r8s9t0v1w:live');
    expect(entitlementTokenAudience('mer_01jd8x3k2m4n5p6q7r8s9t0v1w', 'test')).toBe('mer_01jd8x3k2m4n5p6q7r8s9t0v1w:test');
  });

  it('keeps a product without a store id as null', () => {
    expect(buildEntitlementTokenClaims({ ...subject(null), storeProductId: null }, now, HOUR).store_product_id).toBeNull();
  });
});
