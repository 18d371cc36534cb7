import { ENTITLEMENT_STATUSES } from '../../src/entitlements/entitlement.entity';
import { subscriptionStep } from '../../src/subscriptions/subscription-step';

const END = new Date('2027-05-01T00:00:00.000Z');

describe('subscriptionStep: what a store subscription status does to its entitlement, asked of the transition table', () => {
  it.each([
    // [entitlement status, target, expected operation]
    ['active', 'expired', 'expire'],
    ['suspended', 'expired', 'expire'],
    ['expired', 'expired', 'none'],
    ['active', 'suspended', 'suspend'],
    ['suspended', 'suspended', 'none'],
    ['expired', 'suspended', 'none'],
    ['suspended', 'active', 'reactivate'],
    ['expired', 'active', 'reactivate'],
  ] as const)('%s entitlement, subscription wants it %s: %s', (status, target, operation) => {
    expect(subscriptionStep(status, null, target, null).operation).toBe(operation);
  });

  it('never touches a revoked or a pending entitlement, whatever the store says', () => {
    for (const status of ['revoked', 'pending'] as const) {
      for (const target of ['active', 'suspended', 'expired'] as const) {
        expect(subscriptionStep(status, null, target, END)).toEqual({ operation: 'none' });
      }
    }
  });

  it('follows cancel_at_period_end on an active entitlement through its expiry, and changes nothing when it agrees', () => {
    expect(subscriptionStep('active', null, 'active', END)).toEqual({ operation: 'update', expiresAt: END });
    expect(subscriptionStep('active', END, 'active', null)).toEqual({ operation: 'update', expiresAt: null });
    expect(subscriptionStep('active', new Date(END.getTime()), 'active', END)).toEqual({ operation: 'none' });
    expect(subscriptionStep('suspended', null, 'active', END)).toEqual({ operation: 'reactivate', expiresAt: END });
  });

  it('has an answer for every status and target', () => {
    for (const status of ENTITLEMENT_STATUSES) {
      for (const target of ['active', 'suspended', 'expired'] as const) {
        expect(['none', 'expire', 'suspend', 'update', 'reactivate']).toContain(subscriptionStep(status, null, target, null).operation);
      }
    }
  });
});
