import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import type { EntitlementStatus } from './entitlement.entity';

export const ENTITLEMENT_OPERATIONS = ['suspend', 'revoke', 'reactivate', 'activate', 'update', 'use', 'expire'] as const;
export type EntitlementOperation = (typeof ENTITLEMENT_OPERATIONS)[number];

/**
 * The lifecycle (DESIGN §5) as one table: operation → (effective status before → status after).
 * A pair that is not listed is refused with 409 INVALID_STATUS_TRANSITION. An active entitlement
 * whose time or uses run out is expired from that instant (effective-status.ts); `expire` is the one
 * path that persists it (the sweeper), and also ends an entitlement now (a canceled subscription).
 * Expiring an entitlement that is already expired changes nothing and publishes nothing.
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
  expire: { active: 'expired', suspended: 'expired' },
};

/** The status after `operation`, or null when the table forbids it. */
export function nextStatus(operation: EntitlementOperation, from: EntitlementStatus): EntitlementStatus | null {
  return ENTITLEMENT_TRANSITIONS[operation][from] ?? null;
}

/**
 * Whether the table lets `operation` apply to an entitlement whose effective status is `from`:
 * what every caller that must not try a forbidden transition asks (orders' refunds, subscriptions'
 * steps, bundles' cascade), instead of restating the table.
 */
export function canTransition(operation: EntitlementOperation, from: EntitlementStatus): boolean {
  return nextStatus(operation, from) !== null;
}

/** The status after `operation`; throws 409 INVALID_STATUS_TRANSITION when the table forbids it. */
export function transition(operation: EntitlementOperation, from: EntitlementStatus): EntitlementStatus {
  const to = nextStatus(operation, from);
  if (to === null) {
    throw new ApiError(ErrorCode.INVALID_STATUS_TRANSITION, `Cannot ${operation} an entitlement that is ${from}`);
  }
  return to;
}
