import { ApiConnectionError, ApiTimeoutError, SHOULD_RETRY_HEADER } from './api-error';
import { recordAttempts } from './response-info';

/** How one call is sent: its deadline per attempt, and how often and how patiently it is retried. */
export interface RetryPolicy {
  /**
   * Retries after a 429, a 503, a 409 or 5xx the service marks `X-Should-Retry: true`, or a network
   * error, for idempotent calls only (default 2). `X-Should-Retry: false` is never retried.
   */
  maxRetries: number;
  /** Milliseconds an attempt may take, its whole response read (default 60,000). */
  timeout: number;
  /** First backoff in milliseconds, doubled each retry (default 500). */
  initialRetryDelay: number;
  /** Longest backoff in milliseconds (default 8,000). */
  maxRetryDelay: number;
  /** A Retry-After longer than this (milliseconds) is not waited for: the 429 is thrown (default 60,000). */
  maxRetryAfter: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 2,
  timeout: 60_000,
  initialRetryDelay: 500,
  maxRetryDelay: 8_000,
  maxRetryAfter: 60_000,
};

export type FetchFunction = (request: Request) => Promise<Response>;

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
const RETRIED_STATUSES = new Set([429, 503]);

/** Whether an answer is worth the same request again: the service's hint first, else its status. */
export function isRetryable(response: Response): boolean {
  const hint = response.headers.get(SHOULD_RETRY_HEADER);
  if (hint === 'false') return false;
  if (hint === 'true') return response.status === 409 || response.status === 429 || response.status >= 500;
  return RETRIED_STATUSES.has(response.status);
}
/** Statuses a Response may not be built with a body for. */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/**
 * Whether sending the request twice acts at most once: GET/PUT/DELETE by their meaning, and a POST
 * that carries an Idempotency-Key (the service replays the first answer to a repeat).
 */
export function isIdempotent(request: Request): boolean {
  return IDEMPOTENT_METHODS.has(request.method) || request.headers.has('idempotency-key');
}

/** Exponential backoff with jitter: a random delay between half and all of initial × 2^retry, capped. */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxRetryDelay, policy.initialRetryDelay * 2 ** retry);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** Retry-After in whole seconds (or an HTTP date), as milliseconds; null when absent or unreadable. */
export function retryAfterDelay(response: Response, now: number = Date.now()): number | null {
  const value = response.headers.get('retry-after');
  if (value === null || value.trim() === '') return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function sleep(milliseconds: number, signal: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Sends a request with a deadline per attempt, retrying an idempotent one after a 429 (waiting
 * Retry-After), a 503 or a network error with exponential backoff and jitter. Every attempt is a
 * copy of the same request, so a retried write carries the same Idempotency-Key and the service
 * acts once. The caller's signal (the request's own) cancels the attempt and any wait.
 */
export async function sendWithRetries(request: Request, policy: RetryPolicy, fetchFunction: FetchFunction): Promise<Response> {
  const callerSignal = request.signal;
  const retriesAllowed = isIdempotent(request) ? policy.maxRetries : 0;
  for (let attempt = 1; ; attempt++) {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), policy.timeout);
    const signal = AbortSignal.any([callerSignal, deadline.signal]);
    let response: Response;
    try {
      response = await fetchFunction(new Request(request.clone(), { signal }));
      // Read under the same deadline: a body that trickles is a timeout too, not a call that hangs.
      const body = NULL_BODY_STATUSES.has(response.status) ? null : await response.arrayBuffer();
      response = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    } catch (error: unknown) {
      if (callerSignal.aborted) throw callerSignal.reason;
      const failure = deadline.signal.aborted
        ? new ApiTimeoutError(`No response within ${policy.timeout} ms (attempt ${attempt})`, attempt, { cause: error })
        : new ApiConnectionError(`Request failed: ${error instanceof Error ? error.message : String(error)} (attempt ${attempt})`, attempt, { cause: error });
      if (attempt > retriesAllowed) throw failure;
      await sleep(backoffDelay(attempt - 1, policy), callerSignal);
      continue;
    } finally {
      clearTimeout(timer);
    }
    if (isRetryable(response) && attempt <= retriesAllowed) {
      const delay = retryAfterDelay(response) ?? backoffDelay(attempt - 1, policy);
      if (delay <= policy.maxRetryAfter) {
        await sleep(delay, callerSignal);
        continue;
      }
    }
    recordAttempts(response, attempt);
    return response;
  }
}
