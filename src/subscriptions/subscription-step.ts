import { canTransition } from '../entitlements/entitlement-state-machine';
import type { EntitlementStatus } from '../entitlements/entitlement.entity';

/** What a subscription's status calls for its entitlement to be. */
export type EntitlementTarget = 'active' | 'suspended' | 'expired';

/** The one lifecycle operation (or none) that brings the entitlement a step towards its target. */
export type SubscriptionStep =
  | { operation: 'none' }
  | { operation: 'expire' }
  | { operation: 'suspend' }
  | { operation: 'update'; expiresAt: Date | null }
  | { operation: 'reactivate'; expiresAt: Date | null };

const NONE: SubscriptionStep = { operation: 'none' };

/**
 * The step that brings an entitlement whose effective status is `status` to `target`, asking the
 * lifecycle's transition table (canTransition) rather than restating it: what the table forbids
 * (a revoked or a pending entitlement, say) is left as it is, whatever the store says. An active
 * entitlement of an active subscription follows `cancel_at_period_end` through its expiry
 * (`endsAt`; the sweeper and the check take it from there; undoing it removes the expiry).
 */
export function subscriptionStep(status: EntitlementStatus, expiresAt: Date | null, target: EntitlementTarget, endsAt: Date | null): SubscriptionStep {
  if (target === 'expired') return canTransition('expire', status) ? { operation: 'expire' } : NONE;
  if (target === 'suspended') return canTransition('suspend', status) ? { operation: 'suspend' } : NONE;
  if (status === 'active') return (expiresAt?.getTime() ?? null) === (endsAt?.getTime() ?? null) ? NONE : { operation: 'update', expiresAt: endsAt };
  return canTransition('reactivate', status) ? { operation: 'reactivate', expiresAt: endsAt } : NONE;
}
