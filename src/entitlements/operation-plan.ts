import { ApiError } from '../errors/api-error';
import { effectiveStatus } from './effective-status';
import { canTransition, EntitlementOperation, transition } from './entitlement-state-machine';
import type { EntitlementEntity, EntitlementStatus } from './entitlement.entity';
import { stateOf } from './entitlement-state';
import type { EntitlementState } from './entitlements.repository';

/**
 * Applies an allowed operation's other effects to the state; may refuse with an ApiError (the
 * transaction rolls back; a bundle child that refuses is left as it is). `parent` is the bundle
 * parent as saved, when applying to one of its children.
 */
export type Apply = (state: EntitlementState, now: Date, parent?: EntitlementEntity) => void;

/** What an operation does to one entitlement, decided before anything is written. */
export type OperationPlan =
  /** A bundle child the operation does not fit (by the transition table or by `apply`'s refusal): left as it is. */
  | { kind: 'leave' }
  /** `expire` of an expired entitlement: nothing to apply, only a stored status that lags behind to record. */
  | { kind: 'already-expired'; from: EntitlementStatus }
  /** The new state, `to` its status; `from` is the effective status it leaves. */
  | { kind: 'apply'; from: EntitlementStatus; to: EntitlementStatus; state: EntitlementState };

/**
 * The one place an operation's fate is decided, for a target (`strict`: a forbidden transition or
 * a refusal throws) and for a bundle child in the cascade (not strict: it is left as it is).
 */
export function planOperation(entitlement: EntitlementEntity, operation: EntitlementOperation, apply: Apply, now: Date, strict: boolean): OperationPlan {
  const from = effectiveStatus(entitlement, now);
  // expire of an expired entitlement is the one pair that is neither applied nor refused.
  if (operation === 'expire' && from === 'expired') return { kind: 'already-expired', from };
  // The cascade asks the table: a bundle child the operation does not fit is left as it is.
  if (!strict && !canTransition(operation, from)) return { kind: 'leave' };
  const to = transition(operation, from);
  const state = { ...stateOf(entitlement), status: from };
  try {
    apply(state, now);
  } catch (error) {
    if (strict || !(error instanceof ApiError)) throw error;
    return { kind: 'leave' };
  }
  state.status = to;
  return { kind: 'apply', from, to, state };
}
