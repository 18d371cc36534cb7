/**
 * Example: a customer's app deciding access offline from an entitlement token (DESIGN §12).
 *
 * The merchant's backend asks the API for a token (`client.entitlements.issueToken(id)`, or
 * `client.entitlements.check({ …, include_token: true })`) and hands it to its app; the app verifies
 * it with the service's public keys, with no call to the API per check. Pinning the merchant and
 * mode is what makes another merchant's token, or a test-mode token in production, fail: both carry
 * ids that may look alike, but their audience (`{merchant}:{mode}`) differs.
 *
 * CI compiles it against the packed SDK and runs it on real tokens: its own merchant's (allowed),
 * another merchant's and the other mode's (refused); see sdk/examples/walk.ts.
 */
import { TokenVerificationError, verifyEntitlementToken, type EntitlementTokenClaims } from '@entitlement-delivery/sdk';

export interface AccessPolicy {
  /** `https://api.example.com/.well-known/jwks.json`: fetched once, cached, refetched for a new key. */
  jwksUrl: string;
  /** Your merchant id (`mer_…`). */
  merchantId: string;
  /** `live` in production; `test` against test-mode keys. */
  mode: 'live' | 'test';
}

export type AccessDecision = { allowed: true; claims: EntitlementTokenClaims } | { allowed: false; reason: string };

/** May the holder of `token` use `productId` now? Refuses forged, expired, foreign and other-mode tokens. */
export async function decideAccess(policy: AccessPolicy, token: string, productId: string): Promise<AccessDecision> {
  try {
    const claims = await verifyEntitlementToken(token, {
      jwks: policy.jwksUrl,
      merchant: policy.merchantId,
      mode: policy.mode,
      productId,
    });
    return { allowed: true, claims };
  } catch (error: unknown) {
    // EXPIRED, WRONG_AUDIENCE (another merchant or mode), WRONG_PRODUCT, INVALID_SIGNATURE…
    if (error instanceof TokenVerificationError) return { allowed: false, reason: error.reason };
    throw error;
  }
}
