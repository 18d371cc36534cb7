import type { EntitlementEntity } from '../../src/entitlements/entitlement.entity';
import { bundleChildrenOf, grantsThatFireRules, ruleGrantCandidates } from '../../src/entitlements/grant-cascade';
import type { TriggeredGrant } from '../../src/grant-rules/grant-rules.service';

const EXPIRES = new Date('2027-01-01T00:00:00.000Z');

function granted(overrides: Partial<EntitlementEntity>): EntitlementEntity {
  return {
    id: 'ent_parent',
    customer_id: 'cus_a',
    test_clock_id: null,
    product_id: 'prod_bundle',
    status: 'active',
    expires_at: EXPIRES,
    store_order_id: 'order_1',
    store_line_item_id: 'line_1',
    source: 'order',
    parent_entitlement_id: null,
    ...overrides,
  } as EntitlementEntity;
}

const rule = (triggerProductId: string, grantProductId: string, accessDurationDays: number | null = null, ruleId = `rule_${triggerProductId}_${grantProductId}`): TriggeredGrant => ({
  ruleId,
  triggerProductId,
  grantProductId,
  accessDurationDays,
});

describe('bundleChildrenOf: what a bundle grant brings', () => {
  it("gives one child per included product, with the parent's customer, status, expiry and order line and the child product's own usage limit", () => {
    let next = 0;
    const children = bundleChildrenOf(
      [granted({ status: 'pending' })],
      new Map([
        [
          'prod_bundle',
          [
            { id: 'prod_ebook', entitlement_type: 'permanent', usage_limit: null },
            { id: 'prod_course', entitlement_type: 'usage_limited', usage_limit: 3 },
          ],
        ],
      ]),
      () => `ent_child_${++next}`,
    );
    expect(children).toEqual([
      { id: 'ent_child_1', customer_id: 'cus_a', test_clock_id: null, product_id: 'prod_ebook', status: 'pending', expires_at: EXPIRES, usage_limit: null, source: 'bundle', store_order_id: 'order_1', store_line_item_id: 'line_1', parent_entitlement_id: 'ent_parent', metadata: {} },
      { id: 'ent_child_2', customer_id: 'cus_a', test_clock_id: null, product_id: 'prod_course', status: 'pending', expires_at: EXPIRES, usage_limit: 3, source: 'bundle', store_order_id: 'order_1', store_line_item_id: 'line_1', parent_entitlement_id: 'ent_parent', metadata: {} },
    ]);
  });

  it("gives nothing for a product that includes nothing, and keeps each parent apart, with its customer's test clock", () => {
    const children = bundleChildrenOf(
      [granted({ id: 'ent_1', product_id: 'prod_plain' }), granted({ id: 'ent_2', customer_id: 'cus_b', test_clock_id: 'clock_b' })],
      new Map([['prod_bundle', [{ id: 'prod_ebook', entitlement_type: 'permanent', usage_limit: null }]]]),
      () => 'ent_child',
    );
    expect(children.map((child) => [child.parent_entitlement_id, child.customer_id, child.test_clock_id, child.product_id])).toEqual([['ent_2', 'cus_b', 'clock_b', 'prod_ebook']]);
  });
});

describe('grantsThatFireRules: rules never chain', () => {
  it("fires for direct grants and their bundle children, never for a rule's own grant or its children", () => {
    const direct = granted({ id: 'ent_direct', source: 'api' });
    const byRule = granted({ id: 'ent_rule', source: 'rule' });
    const childOfDirect = granted({ id: 'ent_child_direct', source: 'bundle', parent_entitlement_id: 'ent_direct' });
    const childOfRule = granted({ id: 'ent_child_rule', source: 'bundle', parent_entitlement_id: 'ent_rule' });
    expect(grantsThatFireRules([direct, byRule], [childOfDirect, childOfRule]).map((entitlement) => entitlement.id)).toEqual(['ent_direct', 'ent_child_direct']);
  });
});

describe('ruleGrantCandidates: what the triggered rules would grant', () => {
  it('grants each rule product once per customer holding its trigger; the first rule naming a product wins', () => {
    const firing = [
      granted({ customer_id: 'cus_a', product_id: 'prod_x' }),
      granted({ customer_id: 'cus_b', test_clock_id: 'clock_b', product_id: 'prod_y' }),
      granted({ customer_id: 'cus_a', product_id: 'prod_y' }),
    ];
    const candidates = ruleGrantCandidates(firing, [rule('prod_x', 'prod_bonus', 30), rule('prod_y', 'prod_bonus', 7), rule('prod_y', 'prod_extra')]);
    expect(candidates).toEqual([
      { customerId: 'cus_a', testClockId: null, productId: 'prod_bonus', accessDurationDays: 30 },
      { customerId: 'cus_a', testClockId: null, productId: 'prod_extra', accessDurationDays: null },
      // A customer bound to a test clock keeps it on what the rules grant (DESIGN §14).
      { customerId: 'cus_b', testClockId: 'clock_b', productId: 'prod_bonus', accessDurationDays: 7 },
      { customerId: 'cus_b', testClockId: 'clock_b', productId: 'prod_extra', accessDurationDays: null },
    ]);
  });

  it('grants nothing when no firing grant holds a trigger, or when there are no rules', () => {
    expect(ruleGrantCandidates([granted({ product_id: 'prod_z' })], [rule('prod_x', 'prod_bonus')])).toEqual([]);
    expect(ruleGrantCandidates([granted({ product_id: 'prod_x' })], [])).toEqual([]);
    expect(ruleGrantCandidates([], [rule('prod_x', 'prod_bonus')])).toEqual([]);
  });
});
