import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import type { EntitlementStatus } from './entitlement.entity';

export const ENTITLEMENT_OPERATIONS = ['suspend', 'revoke', 'reactivate', 'activate', 'update', 'use'] as const;
export type EntitlementOperation = (typeof ENTITLEMENT_OPERATIONS)[number];

/**
 * The lifecycle (DESIGN §5) as one table: operation → (effective status before → status after).
 * A pair that is not listed is refused with 409 INVALID_STATUS_TRANSITION. Expiry itself is not an
 * operation: an active entitlement whose time or uses run out is expired from that instant
 * (effective-status.ts) and the sweeper persists it.
 */
export const ENTITLEMENT_TRANSITIONS: Readonly<
  Record<EntitlementOperation, Readonly<Partial<Record<EntitlementStatus, EntitlementStatus>>>>
> = {
  suspend: { active: 'suspended' },
  revoke: { active: 'revoked', suspended: 'revoked', pending: 'revoked' },
  reactivate: { suspended: 'active', expired: 'active' },
  activate: { pending: 'active' },
  update: { active: 'active', suspended: 'suspended', pending: 'pending', expired: 'expired' },
  use: { active: 'active' },
};

/** The status after `operation`, or null when the table forbids it. */
export function nextStatus(operation: EntitlementOperation, from: EntitlementStatus): EntitlementStatus | null {
  return ENTITLEMENT_TRANSITIONS[operation][from] ?? null;
}

/** The status after `operation`; throws 409 INVALID_STATUS_TRANSITION when the table forbids it. */
export function transition(operation: EntitlementOperation, from: EntitlementStatus): EntitlementStatus {
  const to = nextStatus(operation, from);
  if (to === null) {
    throw new ApiError(ErrorCode.INVALID_STATUS_TRANSITION, `Cannot ${operation} an entitlement that is ${from}`);
  }
  return to;
}
