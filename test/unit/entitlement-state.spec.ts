import { ApiError } from '../../src/errors/api-error';
import { ErrorCode } from '../../src/errors/error-code.enum';
import type { EntitlementEntity } from '../../src/entitlements/entitlement.entity';
import { refuseIfExpiredAtOnce, stateOf } from '../../src/entitlements/entitlement-state';
import type { EntitlementState } from '../../src/entitlements/entitlements.repository';

const NOW = new Date('2026-11-28T12:00:00.000Z');

function state(overrides: Partial<EntitlementState>): EntitlementState {
  return {
    status: 'suspended',
    expires_at: null,
    revoked_at: null,
    revocation_reason: null,
    suspended_at: NOW,
    suspension_reason: 'chargeback',
    usage_count: 0,
    usage_limit: null,
    metadata: {},
    ...overrides,
  };
}

function refusal(action: () => void): { code: ErrorCode; message: string; param?: string } | null {
  try {
    action();
    return null;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { code: error.code, message: error.message, param: error.param };
  }
}

const refuse = (entitlement: EntitlementState) => refusal(() => refuseIfExpiredAtOnce(entitlement, NOW, 'Reactivating', 'send a later expires_at', 'raise usage_limit'));

describe('entitlement state', () => {
  it('stateOf takes exactly the columns an operation may change, as they are', () => {
    const entity = {
      id: 'ent_1',
      merchant_id: 'mer_1',
      customer_id: 'cus_1',
      product_id: 'prod_1',
      parent_entitlement_id: null,
      status: 'active',
      expires_at: new Date('2027-01-01T00:00:00.000Z'),
      revoked_at: null,
      revocation_reason: null,
      suspended_at: NOW,
      suspension_reason: 'audit',
      usage_count: 2,
      usage_limit: 5,
      metadata: { plan: 'gold' },
      created_at: NOW,
    } as unknown as EntitlementEntity;
    expect(stateOf(entity)).toEqual({
      status: 'active',
      expires_at: new Date('2027-01-01T00:00:00.000Z'),
      revoked_at: null,
      revocation_reason: null,
      suspended_at: NOW,
      suspension_reason: 'audit',
      usage_count: 2,
      usage_limit: 5,
      metadata: { plan: 'gold' },
    });
  });

  describe('refuseIfExpiredAtOnce: reactivate/activate must not leave an entitlement expired the moment it is active', () => {
    it('lets through one with time and uses left, or no bounds at all', () => {
      expect(refuse(state({}))).toBeNull();
      expect(refuse(state({ expires_at: new Date(NOW.getTime() + 1), usage_count: 4, usage_limit: 5 }))).toBeNull();
    });

    it('refuses one whose expires_at has passed, or is now, naming the field and the way out', () => {
      for (const expiresAt of [new Date(NOW.getTime() - 86_400_000), NOW]) {
        expect(refuse(state({ expires_at: expiresAt }))).toEqual({
          code: ErrorCode.INVALID_STATUS_TRANSITION,
          message: `Reactivating would leave the entitlement expired at once: expires_at (${expiresAt.toISOString()}) has passed; send a later expires_at`,
          param: 'expires_at',
        });
      }
    });

    it('refuses one whose uses are used up, naming the field and the way out', () => {
      expect(refuse(state({ usage_count: 3, usage_limit: 3 }))).toEqual({
        code: ErrorCode.INVALID_STATUS_TRANSITION,
        message: 'Reactivating would leave the entitlement expired at once: usage_count (3) has reached usage_limit (3); raise usage_limit',
        param: 'usage_limit',
      });
    });

    it('names the time first when both have run out', () => {
      expect(refuse(state({ expires_at: NOW, usage_count: 3, usage_limit: 3 }))?.param).toBe('expires_at');
    });
  });
});
