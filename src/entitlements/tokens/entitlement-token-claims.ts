import type { ApiMode } from '../../database/tenant';
import type { EntitlementCheckItemDto } from '../dto/entitlement-response.dto';

/**
 * What a signed entitlement token says (DESIGN §12): the check's entitlement, who it is for, and its
 * lifetime. `iss` and `aud` are what a verifier pins: the service that signed it, and the one
 * merchant and mode it is for, so a token of another merchant or mode fails the verification
 * itself instead of depending on the verifier comparing ids.
 */
export interface EntitlementTokenClaims extends EntitlementCheckItemDto {
  /** The signing service: its PUBLIC_BASE_URL. */
  iss: string;
  /** `{merchant id}:{live|test}`. */
  aud: string;
  /** The customer id. */
  sub: string;
  merchant: string;
  livemode: boolean;
  customer_id: string;
  store_customer_id: string;
  store_product_id: string | null;
  /** Issued at, seconds since the epoch. */
  iat: number;
  /** Expiry, seconds since the epoch. */
  exp: number;
}

export interface TokenSubject {
  /** PUBLIC_BASE_URL, without a trailing slash. */
  issuer: string;
  entitlement: EntitlementCheckItemDto;
  merchantId: string;
  mode: ApiMode;
  customerId: string;
  storeCustomerId: string;
  storeProductId: string | null;
}

/** The `aud` claim of a merchant's tokens in one mode; verifiers build the same string. */
export function entitlementTokenAudience(merchantId: string, mode: ApiMode): string {
  return `${merchantId}:${mode}`;
}

/**
 * The claims of a token issued at `now`, the customer's now (its test clock's frozen time when it is
 * bound to one). It lasts `ttlMilliseconds`, but never past the entitlement's own expiry: `exp` is
 * the earlier of the two, rounded down to the second (JWT times are whole seconds), so a token never
 * outlives its entitlement. A verifier checks `exp` against real time, so a clock set in the future
 * issues at `realNow` instead: its token can't be dated ahead of real time nor outlive real now +
 * the TTL (DESIGN §12, §14); a clock in the past keeps its own time.
 */
export function buildEntitlementTokenClaims(subject: TokenSubject, now: Date, ttlMilliseconds: number, realNow: Date = now): EntitlementTokenClaims {
  const issuedAtMilliseconds = Math.min(now.getTime(), realNow.getTime());
  const issuedAt = Math.floor(issuedAtMilliseconds / 1000);
  const ttlEnd = Math.floor((issuedAtMilliseconds + ttlMilliseconds) / 1000);
  const entitlementEnd = subject.entitlement.expires_at === null ? Infinity : Math.floor(new Date(subject.entitlement.expires_at).getTime() / 1000);
  return {
    ...subject.entitlement,
    iss: subject.issuer,
    aud: entitlementTokenAudience(subject.merchantId, subject.mode),
    sub: subject.customerId,
    merchant: subject.merchantId,
    livemode: subject.mode === 'live',
    customer_id: subject.customerId,
    store_customer_id: subject.storeCustomerId,
    product_id: subject.entitlement.product_id,
    store_product_id: subject.storeProductId,
    iat: issuedAt,
    exp: Math.min(ttlEnd, entitlementEnd),
  };
}
