import { ApiError } from '../../src/errors/api-error';
import { ENTITLEMENT_STATUSES } from '../../src/entitlements/entitlement.entity';
import { ENTITLEMENT_OPERATIONS, nextStatus, transition } from '../../src/entitlements/entitlement-state-machine';

const ALLOWED: Record<string, string> = {
  'active suspend': 'suspended',
  'active revoke': 'revoked',
  'suspended revoke': 'revoked',
  'pending revoke': 'revoked',
  'suspended reactivate': 'active',
  'expired reactivate': 'active',
  'pending activate': 'active',
  'active update': 'active',
  'suspended update': 'suspended',
  'pending update': 'pending',
  'expired update': 'expired',
  'active use': 'active',
  'active expire': 'expired',
  'suspended expire': 'expired',
};

describe('entitlement state machine table', () => {
  const pairs = ENTITLEMENT_STATUSES.flatMap((status) => ENTITLEMENT_OPERATIONS.map((operation) => [status, operation] as const));

  it.each(pairs)('%s + %s', (status, operation) => {
    const expected = ALLOWED[`${status} ${operation}`];
    if (expected) {
      expect(nextStatus(operation, status)).toBe(expected);
      expect(transition(operation, status)).toBe(expected);
    } else {
      expect(nextStatus(operation, status)).toBeNull();
      expect(() => transition(operation, status)).toThrow(ApiError);
      try {
        transition(operation, status);
      } catch (error) {
        expect(error).toMatchObject({ status: 409, renderedCode: 'INVALID_STATUS_TRANSITION', message: `Cannot ${operation} an entitlement that is ${status}` });
      }
    }
  });

  it('keeps revoked terminal', () => {
    for (const operation of ENTITLEMENT_OPERATIONS) expect(nextStatus(operation, 'revoked')).toBeNull();
  });
});
