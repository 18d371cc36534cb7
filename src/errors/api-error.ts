import { ERROR_CATALOGUE, ErrorCode, errorTypeForStatus, ErrorType } from './error-code.enum';

/**
 * The header saying whether the same request may succeed if sent again (as Stripe's
 * Stripe-Should-Retry; the SDK retries idempotent calls on it): true on a 429 and a 503 (after
 * Retry-After), false on a 409 unless its thrower knows the conflict passes (an idempotency key
 * whose first request just finished).
 */
export const SHOULD_RETRY_HEADER = 'X-Should-Retry';

function shouldRetryOf(status: number): Record<string, string> {
  if (status === 429 || status === 503) return { [SHOULD_RETRY_HEADER]: 'true' };
  return status === 409 ? { [SHOULD_RETRY_HEADER]: 'false' } : {};
}

/** The only exception services throw for an expected failure; the global filter renders it. */
export class ApiError extends Error {
  readonly status: number;
  readonly type: ErrorType;
  readonly renderedCode: string;
  /** Response headers: the retry hint, and extras such as Retry-After on RATE_LIMITED. */
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly param?: string,
    headers: Record<string, string> = {},
  ) {
    super(message);
    const entry = ERROR_CATALOGUE[code];
    this.status = entry.status;
    this.type = errorTypeForStatus(entry.status);
    this.renderedCode = entry.renderedCode;
    this.headers = { ...shouldRetryOf(entry.status), ...headers };
  }
}
