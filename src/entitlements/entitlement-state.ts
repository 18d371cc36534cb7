import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { boundReached } from './effective-status';
import type { EntitlementEntity } from './entitlement.entity';
import type { EntitlementState } from './entitlements.repository';

/** The columns an operation may change, as they are now. */
export function stateOf(entitlement: EntitlementEntity): EntitlementState {
  const { status, expires_at, revoked_at, revocation_reason, suspended_at, suspension_reason, usage_count, usage_limit, metadata } = entitlement;
  return { status, expires_at, revoked_at, revocation_reason, suspended_at, suspension_reason, usage_count, usage_limit, metadata };
}

/** Reactivate/activate must not produce an entitlement that is expired the moment it is active. */
export function refuseIfExpiredAtOnce(state: EntitlementState, now: Date, doing: string, extendTime: string, extendUsage: string): void {
  if (boundReached('time', state, now)) {
    // The time bound is reached only when expires_at is set.
    const expiresAt = state.expires_at as Date;
    throw new ApiError(
      ErrorCode.INVALID_STATUS_TRANSITION,
      `${doing} would leave the entitlement expired at once: expires_at (${expiresAt.toISOString()}) has passed; ${extendTime}`,
      'expires_at',
    );
  }
  if (boundReached('uses', state, now)) {
    throw new ApiError(
      ErrorCode.INVALID_STATUS_TRANSITION,
      `${doing} would leave the entitlement expired at once: usage_count (${state.usage_count}) has reached usage_limit (${state.usage_limit}); ${extendUsage}`,
      'usage_limit',
    );
  }
}
