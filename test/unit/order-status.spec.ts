import { lineItemOutcome, orderedUsageLimit, orderStatusOf } from '../../src/orders/order-status';

describe('order status from its line items', () => {
  it.each([
    [[], 'active'],
    [['unmatched', 'skipped'], 'active'],
    [['granted', 'unmatched'], 'active'],
    [['refunded', 'granted'], 'partially_refunded'],
    [['refunded', 'refunded', 'unmatched', 'skipped'], 'refunded'],
    [['refunded'], 'refunded'],
  ] as const)('%j → %s', (statuses, expected) => {
    expect(orderStatusOf(statuses.map((status) => ({ status })))).toBe(expected);
  });
});

describe('line item matching', () => {
  it('no product is unmatched, an archived one skipped, any other granted', () => {
    expect(lineItemOutcome(null)).toEqual({ status: 'unmatched', skippedReason: null });
    expect(lineItemOutcome({ status: 'archived' })).toEqual({ status: 'skipped', skippedReason: 'product_archived' });
    expect(lineItemOutcome({ status: 'active' })).toEqual({ status: 'granted', skippedReason: null });
  });

  it('multiplies a usage_limited product’s limit by the quantity, and leaves other types to the product defaults', () => {
    expect(orderedUsageLimit({ entitlement_type: 'usage_limited', usage_limit: 5 }, 3)).toBe(15);
    expect(orderedUsageLimit({ entitlement_type: 'permanent', usage_limit: null }, 3)).toBeUndefined();
    expect(orderedUsageLimit({ entitlement_type: 'time_limited', usage_limit: null }, 1)).toBeUndefined();
  });
});
