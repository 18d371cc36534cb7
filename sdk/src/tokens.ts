import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import type { components } from './generated/openapi';

/** The check's entitlement, as the token carries it. */
type CheckedEntitlement = NonNullable<components['schemas']['EntitlementCheckResponseDto']['entitlement']>;

/** What a verified entitlement token says (DESIGN §12). */
export interface EntitlementTokenClaims extends CheckedEntitlement {
  /** The signing service: its PUBLIC_BASE_URL. */
  iss: string;
  /** `{merchant id}:{live|test}`: the one merchant and mode the token is for. */
  aud: string;
  /** The customer id. */
  sub: string;
  merchant: string;
  livemode: boolean;
  customer_id: string;
  store_customer_id: string;
  product_id: string;
  store_product_id: string | null;
  /** Issued at, seconds since the epoch. */
  iat: number;
  /** Expiry, seconds since the epoch: the earlier of the entitlement's expires_at and the token TTL. */
  exp: number;
}

export type TokenVerificationFailure =
  | 'EXPIRED'
  | 'WRONG_AUDIENCE'
  | 'WRONG_ISSUER'
  | 'WRONG_PRODUCT'
  | 'WRONG_CUSTOMER'
  | 'WRONG_MACHINE'
  | 'INVALID_SIGNATURE'
  | 'UNKNOWN_KEY'
  | 'KEYS_UNAVAILABLE'
  | 'INVALID_TOKEN';

/** The token does not grant what was asked: `reason` says why (expired, another merchant or mode, forged…). */
export class TokenVerificationError extends Error {
  override readonly name = 'TokenVerificationError';

  constructor(
    readonly reason: TokenVerificationFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface VerifyEntitlementTokenOptions {
  /**
   * The service's public keys: the JWKS URL (`https://api.example.com/.well-known/jwks.json`,
   * fetched once and cached, refetched for an unknown kid), a JWKS object, or a jose key getter.
   */
  jwks: string | URL | JSONWebKeySet | JWTVerifyGetKey;
  /** Your merchant id (`mer_…`): a token of another merchant fails. */
  merchant: string;
  /** The mode your key is in: a token of the other mode fails. */
  mode: 'live' | 'test';
  /**
   * The service's PUBLIC_BASE_URL, which signs as `iss`. By default, when `jwks` is the service's
   * `/.well-known/jwks.json` URL, the issuer the service publishes beside it
   * (`/.well-known/entitlement-token-issuer.json`, fetched once), so a client that reaches the
   * service by another URL than PUBLIC_BASE_URL (127.0.0.1, a private name) needs no option.
   * Required when `jwks` is not a URL.
   */
  issuer?: string;
  /** When given, the token must be for this product (id or store id). */
  productId?: string;
  storeProductId?: string;
  /** When given, the token must be for this customer (id or store id). */
  customerId?: string;
  storeCustomerId?: string;
  /** Seconds of clock skew to accept on `exp` and `iat` (default 0). */
  clockTolerance?: number;
  /** "Now", for tests. */
  currentDate?: Date;
}

const JWKS_PATH = '/.well-known/jwks.json';
/** The service's discovery document beside its JWKS: `{issuer, jwks_uri, …}`. */
export const TOKEN_ISSUER_PATH = '/.well-known/entitlement-token-issuer.json';
/** One discovered issuer per service URL. */
const discoveredIssuers = new Map<string, Promise<string>>();
/** One cached key set per JWKS URL, so repeated verifications fetch the keys once. */
const remoteKeySets = new Map<string, JWTVerifyGetKey>();

export function keySetOf(jwks: VerifyEntitlementTokenOptions['jwks']): JWTVerifyGetKey {
  if (typeof jwks === 'function') return jwks;
  if (typeof jwks === 'string' || jwks instanceof URL) {
    const url = new URL(jwks.toString());
    let keySet = remoteKeySets.get(url.href);
    if (!keySet) {
      keySet = createRemoteJWKSet(url);
      remoteKeySets.set(url.href, keySet);
    }
    return keySet;
  }
  return createLocalJWKSet(jwks);
}

/** The issuer the service at `base` publishes; a service without the document (older) is taken to sign as its URL. */
function discoverIssuer(base: string): Promise<string> {
  let issuer = discoveredIssuers.get(base);
  if (!issuer) {
    issuer = (async () => {
      const response = await globalThis.fetch(`${base}${TOKEN_ISSUER_PATH}`, { headers: { Accept: 'application/json' } });
      if (response.status === 404) return base;
      if (!response.ok) throw new TokenVerificationError('KEYS_UNAVAILABLE', `${base}${TOKEN_ISSUER_PATH} answered ${response.status}`);
      const published = ((await response.json()) as { issuer?: unknown }).issuer;
      if (typeof published !== 'string' || published === '') throw new TokenVerificationError('KEYS_UNAVAILABLE', `${base}${TOKEN_ISSUER_PATH} names no issuer`);
      return published.replace(/\/$/, '');
    })();
    // A failed discovery is tried again on the next verification, not remembered.
    issuer.catch(() => discoveredIssuers.delete(base));
    discoveredIssuers.set(base, issuer);
  }
  return issuer;
}

/** The issuer (PUBLIC_BASE_URL) the service at `baseUrl` signs its tokens as, read from its discovery document once. */
export async function publishedIssuer(baseUrl: string): Promise<string> {
  return issuerOf({ jwks: `${baseUrl.replace(/\/$/, '')}${JWKS_PATH}` });
}

export async function issuerOf(options: Pick<VerifyEntitlementTokenOptions, 'issuer' | 'jwks'>): Promise<string> {
  if (options.issuer) return options.issuer.replace(/\/$/, '');
  if (typeof options.jwks === 'string' || options.jwks instanceof URL) {
    const url = options.jwks.toString();
    if (url.endsWith(JWKS_PATH)) {
      try {
        return await discoverIssuer(url.slice(0, -JWKS_PATH.length));
      } catch (error: unknown) {
        throw error instanceof TokenVerificationError ? error : new TokenVerificationError('KEYS_UNAVAILABLE', `The token issuer could not be read: ${String(error)}`, { cause: error });
      }
    }
  }
  throw new TypeError('verifyEntitlementToken needs `issuer` (the service\'s PUBLIC_BASE_URL) unless `jwks` is its /.well-known/jwks.json URL');
}

/** jose's error codes (stable across its versions) → why the token was refused. */
export function failureOf(error: unknown): TokenVerificationError {
  const { code, claim } = (error ?? {}) as { code?: string; claim?: string };
  const message = error instanceof Error ? error.message : String(error);
  const reason: TokenVerificationFailure =
    code === 'ERR_JWT_EXPIRED'
      ? 'EXPIRED'
      : code === 'ERR_JWT_CLAIM_VALIDATION_FAILED' && claim === 'aud'
        ? 'WRONG_AUDIENCE'
        : code === 'ERR_JWT_CLAIM_VALIDATION_FAILED' && claim === 'iss'
          ? 'WRONG_ISSUER'
          : code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'
            ? 'INVALID_SIGNATURE'
            : code === 'ERR_JWKS_NO_MATCHING_KEY' || code === 'ERR_JWKS_MULTIPLE_MATCHING_KEYS'
              ? 'UNKNOWN_KEY'
              : code === 'ERR_JWKS_TIMEOUT' || code === 'ERR_JWKS_INVALID' || (error instanceof TypeError && /fetch/i.test(message))
                ? 'KEYS_UNAVAILABLE'
                : 'INVALID_TOKEN';
  return new TokenVerificationError(reason, message, { cause: error });
}

/**
 * Verifies an entitlement token offline (after the first key fetch) and returns its claims: an
 * EdDSA signature by one of the service's keys, not expired, issued by the service (`iss`) for your
 * merchant and mode (`aud` = `{merchant}:{mode}`), and, when asked, for the given product and
 * customer. A token of another merchant or of the other mode is refused (`WRONG_AUDIENCE`), whatever
 * ids it carries. Throws TokenVerificationError.
 */
export async function verifyEntitlementToken(token: string, options: VerifyEntitlementTokenOptions): Promise<EntitlementTokenClaims> {
  const issuer = await issuerOf(options);
  let claims: EntitlementTokenClaims;
  try {
    const { payload } = await jwtVerify(token, keySetOf(options.jwks), {
      algorithms: ['EdDSA'],
      typ: 'JWT',
      issuer,
      audience: `${options.merchant}:${options.mode}`,
      requiredClaims: ['iss', 'aud', 'sub', 'exp', 'iat'],
      ...(options.clockTolerance !== undefined ? { clockTolerance: options.clockTolerance } : {}),
      ...(options.currentDate ? { currentDate: options.currentDate } : {}),
    });
    claims = payload as unknown as EntitlementTokenClaims;
  } catch (error: unknown) {
    throw failureOf(error);
  }
  // aud names the merchant and mode; the plain claims must agree (a defect upstream, never a normal refusal).
  if (claims.merchant !== options.merchant || claims.livemode !== (options.mode === 'live')) {
    throw new TokenVerificationError('WRONG_AUDIENCE', 'The token\'s merchant or livemode does not match its audience');
  }
  if ((options.productId && claims.product_id !== options.productId) || (options.storeProductId && claims.store_product_id !== options.storeProductId)) {
    throw new TokenVerificationError('WRONG_PRODUCT', 'The token is for another product');
  }
  if ((options.customerId && claims.customer_id !== options.customerId) || (options.storeCustomerId && claims.store_customer_id !== options.storeCustomerId)) {
    throw new TokenVerificationError('WRONG_CUSTOMER', 'The token is for another customer');
  }
  return claims;
}
