/** The per-key rate limit the service reports on every authenticated response (X-RateLimit-*). */
export interface RateLimit {
  /** Requests allowed a minute in this budget (reads or writes). */
  limit: number;
  /** Requests left in the current window. */
  remaining: number;
  /** Seconds until the window resets. */
  reset: number;
}

/** What the response headers say about one call: `result.lastResponse`, and on errors the error itself. */
export interface ResponseInfo {
  /** HTTP status of the last attempt. */
  status: number;
  /** X-Request-Id (also meta.request_id): quote it when asking for support. */
  requestId: string | null;
  /** X-RateLimit-*, or null on routes without a key (health, JWKS, admin). */
  rateLimit: RateLimit | null;
  /** True when the service answered with the stored response of an earlier request with the same key. */
  idempotentReplayed: boolean;
  /** The Idempotency-Key sent, if any (the same on every retry). */
  idempotencyKey: string | null;
  /** Requests sent for this call: 1 plus the retries. */
  attempts: number;
  headers: Headers;
}

function integerHeader(headers: Headers, name: string): number | null {
  const value = headers.get(name);
  if (value === null || value.trim() === '') return null;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : null;
}

export function rateLimitOf(headers: Headers): RateLimit | null {
  const limit = integerHeader(headers, 'x-ratelimit-limit');
  const remaining = integerHeader(headers, 'x-ratelimit-remaining');
  const reset = integerHeader(headers, 'x-ratelimit-reset');
  return limit === null || remaining === null || reset === null ? null : { limit, remaining, reset };
}

/** Requests sent per response, recorded by the transport (a Response can't carry it otherwise). */
const attemptsByResponse = new WeakMap<Response, number>();

export function recordAttempts(response: Response, attempts: number): void {
  attemptsByResponse.set(response, attempts);
}

export function responseInfoOf(request: Request, response: Response): ResponseInfo {
  return {
    status: response.status,
    requestId: response.headers.get('x-request-id'),
    rateLimit: rateLimitOf(response.headers),
    idempotentReplayed: response.headers.get('idempotent-replayed') === 'true',
    idempotencyKey: request.headers.get('idempotency-key'),
    attempts: attemptsByResponse.get(response) ?? 1,
    headers: response.headers,
  };
}

/** Adds `lastResponse` to a result without making it part of the body (non-enumerable, like Stripe's). */
export function withResponseInfo<Body>(body: Body, info: ResponseInfo): Body & { readonly lastResponse: ResponseInfo } {
  const target = (typeof body === 'object' && body !== null ? body : {}) as Body & { readonly lastResponse: ResponseInfo };
  Object.defineProperty(target, 'lastResponse', { value: info, enumerable: false, configurable: true });
  return target;
}
