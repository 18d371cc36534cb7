import { ApiError } from '../../src/errors/api-error';
import { ErrorCode } from '../../src/errors/error-code.enum';
import type { EntitlementEntity } from '../../src/entitlements/entitlement.entity';
import { refuseIfExpiredAtOnce } from '../../src/entitlements/entitlement-state';
import { Apply, planOperation } from '../../src/entitlements/operation-plan';

const NOW = new Date('2026-11-27T12:00:00.000Z');
const PARENT_EXPIRES = new Date('2027-06-01T00:00:00.000Z');

function entitlement(overrides: Partial<EntitlementEntity>): EntitlementEntity {
  return {
    id: 'ent_child',
    status: 'active',
    expires_at: null,
    revoked_at: null,
    revocation_reason: null,
    suspended_at: null,
    suspension_reason: null,
    usage_count: 0,
    usage_limit: null,
    metadata: {},
    parent_entitlement_id: 'ent_parent',
    ...overrides,
  } as EntitlementEntity;
}

const suspend: Apply = (state, now) => {
  state.suspended_at = now;
  state.suspension_reason = 'chargeback';
};
/** What a bundle child gets on reactivate: the parent's expiry, refused when it would be expired at once. */
const reactivateChild: Apply = (state, now) => {
  state.expires_at = PARENT_EXPIRES;
  refuseIfExpiredAtOnce(state, now, 'Reactivating', '', '');
  state.suspended_at = null;
  state.suspension_reason = null;
};

describe('planOperation: the bundle cascade and its target', () => {
  it('applies a suspend to an active child: the new state carries the suspension', () => {
    const plan = planOperation(entitlement({}), 'suspend', suspend, NOW, false);
    expect(plan).toEqual({ kind: 'apply', from: 'active', to: 'suspended', state: expect.objectContaining({ status: 'suspended', suspended_at: NOW, suspension_reason: 'chargeback' }) });
  });

  it('leaves a child the transition table refuses (a revoked child on suspend), where the target itself would throw', () => {
    const revoked = entitlement({ status: 'revoked', revoked_at: NOW });
    expect(planOperation(revoked, 'suspend', suspend, NOW, false)).toEqual({ kind: 'leave' });
    expect(() => planOperation(revoked, 'suspend', suspend, NOW, true)).toThrow(ApiError);
  });

  it("leaves a child whose own uses ran out on reactivate (apply refuses), where the target's refusal throws", () => {
    const usedUp = entitlement({ status: 'suspended', suspended_at: NOW, usage_count: 3, usage_limit: 3 });
    expect(planOperation(usedUp, 'reactivate', reactivateChild, NOW, false)).toEqual({ kind: 'leave' });
    expect(() => planOperation(usedUp, 'reactivate', reactivateChild, NOW, true)).toThrow(expect.objectContaining({ code: ErrorCode.INVALID_STATUS_TRANSITION }));
  });

  it("reactivates a suspended child with uses left, taking the parent's expiry", () => {
    const plan = planOperation(entitlement({ status: 'suspended', suspended_at: NOW, usage_count: 1, usage_limit: 3 }), 'reactivate', reactivateChild, NOW, false);
    expect(plan).toEqual({ kind: 'apply', from: 'suspended', to: 'active', state: expect.objectContaining({ status: 'active', expires_at: PARENT_EXPIRES, suspended_at: null }) });
  });

  it('plans from the effective status: a child stored active but past its time is expired, and expire then only records it', () => {
    const lapsed = entitlement({ expires_at: new Date(NOW.getTime() - 1) });
    expect(planOperation(lapsed, 'expire', () => undefined, NOW, false)).toEqual({ kind: 'already-expired', from: 'expired' });
    expect(planOperation(lapsed, 'suspend', suspend, NOW, false)).toEqual({ kind: 'leave' });
  });

  it('passes on an error that is not a refusal, even in the cascade', () => {
    const broken: Apply = () => {
      throw new TypeError('a bug');
    };
    expect(() => planOperation(entitlement({}), 'suspend', broken, NOW, false)).toThrow(TypeError);
  });
});
