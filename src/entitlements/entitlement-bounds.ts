import { INT4_MAX } from '../database/columns';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';

/**
 * The bounds of an entitlement's time and uses, each written once. Every grant path (the
 * combined create, the grant's transaction, rule grants, imports: parser and batch) and every
 * transition asks here; a caller that needs its own wording adds detail, never its own test.
 */

const DAY_MILLISECONDS = 24 * 60 * 60 * 1000;

/** The expiry `days` days after `now` (a time_limited product's default, a grant rule's access), or null for no bound. */
export function expiryAfterDays(now: Date, days: number | null): Date | null {
  return days === null ? null : new Date(now.getTime() + days * DAY_MILLISECONDS);
}

/** Whether an `expires_at` given with a grant or a change is acceptable at the customer's `now`: strictly later. */
export function isFutureExpiry(expiresAt: Date, now: Date): boolean {
  return expiresAt.getTime() > now.getTime();
}

/** What a refused expiry says (imports put it in a row's error). */
export const PAST_EXPIRY_MESSAGE = `'expires_at' must be in the future`;

/** 400 INVALID_PARAMETER on expires_at unless it is in the future; `detail` is appended to the message. */
export function refuseUnlessFutureExpiry(expiresAt: Date | null | undefined, now: Date, detail = ''): void {
  if (expiresAt && !isFutureExpiry(expiresAt, now)) throw new ApiError(ErrorCode.INVALID_PARAMETER, `${PAST_EXPIRY_MESSAGE}${detail}`, 'expires_at');
}

/**
 * Why `quantity` more uses can't be recorded (the usage limit, or usage_count's int4 column), or
 * null when they can. The use that reaches the limit is allowed; the locked path throws the
 * refusal, the combined path takes null as its only go-ahead.
 */
export function useRefusal(state: { usage_count: number; usage_limit: number | null }, quantity: number): ApiError | null {
  if (state.usage_limit !== null && state.usage_count + quantity > state.usage_limit) {
    const left = state.usage_limit - state.usage_count;
    return new ApiError(
      ErrorCode.INVALID_STATUS_TRANSITION,
      `Cannot use the entitlement ${quantity} more time(s): usage_limit is ${state.usage_limit} and ${left} use(s) are left`,
      'quantity',
    );
  }
  if (state.usage_count + quantity > INT4_MAX) {
    // usage_count is an int4 column: past its range the UPDATE would fail (a 500).
    return new ApiError(ErrorCode.INVALID_PARAMETER, `Invalid 'quantity': usage_count (${state.usage_count}) may not pass ${INT4_MAX}`, 'quantity');
  }
  return null;
}
