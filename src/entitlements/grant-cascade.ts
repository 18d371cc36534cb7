import type { TriggeredGrant } from '../grant-rules/grant-rules.service';
import type { ProductEntity } from '../products/product.entity';
import type { EntitlementEntity } from './entitlement.entity';
import type { NewEntitlement } from './entitlements.repository';

/**
 * What a grant brings with it (DESIGN §10), as pure rules the grants service asks inside its
 * transaction: a bundle's children, which grants fire rules, and what those rules would grant.
 */

type Parent = Pick<EntitlementEntity, 'id' | 'customer_id' | 'test_clock_id' | 'product_id' | 'status' | 'expires_at' | 'store_order_id' | 'store_line_item_id'>;
export type BundleChild = Pick<
  NewEntitlement,
  'id' | 'customer_id' | 'test_clock_id' | 'product_id' | 'status' | 'expires_at' | 'usage_limit' | 'source' | 'store_order_id' | 'store_line_item_id' | 'parent_entitlement_id' | 'metadata'
>;

export function defaultUsageLimit(product: Pick<ProductEntity, 'entitlement_type' | 'usage_limit'>): number | null {
  return product.entitlement_type === 'usage_limited' ? product.usage_limit : null;
}

/**
 * One child per product each bundle includes: the parent's customer (and its test clock), status,
 * expiry and order line, the child product's own usage limit. Bundles don't nest, so children have no children.
 */
export function bundleChildrenOf(parents: Parent[], included: ReadonlyMap<string, ReadonlyArray<Pick<ProductEntity, 'id' | 'entitlement_type' | 'usage_limit'>>>, newId: () => string): BundleChild[] {
  return parents.flatMap((parent) =>
    (included.get(parent.product_id) ?? []).map((product) => ({
      id: newId(),
      customer_id: parent.customer_id,
      test_clock_id: parent.test_clock_id,
      product_id: product.id,
      status: parent.status,
      expires_at: parent.expires_at,
      usage_limit: defaultUsageLimit(product),
      source: 'bundle' as const,
      store_order_id: parent.store_order_id,
      store_line_item_id: parent.store_line_item_id,
      parent_entitlement_id: parent.id,
      metadata: {},
    })),
  );
}

type Granted = Pick<EntitlementEntity, 'id' | 'source' | 'parent_entitlement_id'>;

/** Rules never chain: a rule's own grant, and the bundle children of one, fire no rule; every other grant does. */
export function grantsThatFireRules<T extends Granted>(parents: T[], children: T[]): T[] {
  const ruleParents = new Set(parents.filter((parent) => parent.source === 'rule').map((parent) => parent.id));
  return [...parents, ...children].filter((entitlement) => entitlement.source !== 'rule' && !(entitlement.parent_entitlement_id !== null && ruleParents.has(entitlement.parent_entitlement_id)));
}

export interface RuleGrantCandidate {
  customerId: string;
  /** The customer's test clock (DESIGN §14), null when unbound. */
  testClockId: string | null;
  productId: string;
  accessDurationDays: number | null;
}

/**
 * What the triggered rules would grant: for each customer holding a rule's trigger among the
 * firing grants, the rule's product once per customer (the first rule naming it wins, in the rules'
 * order). Whether the customer holds it already, and whether the product can still be granted, is
 * the caller's to check against the database.
 */
export function ruleGrantCandidates(firing: ReadonlyArray<Pick<EntitlementEntity, 'customer_id' | 'test_clock_id' | 'product_id'>>, rules: readonly TriggeredGrant[]): RuleGrantCandidate[] {
  const heldByCustomer = new Map<string, Set<string>>();
  const clockOf = new Map(firing.map((entitlement) => [entitlement.customer_id, entitlement.test_clock_id]));
  for (const entitlement of firing) {
    const productIds = heldByCustomer.get(entitlement.customer_id) ?? new Set<string>();
    heldByCustomer.set(entitlement.customer_id, productIds.add(entitlement.product_id));
  }
  const candidates = new Map<string, RuleGrantCandidate>();
  for (const [customerId, held] of heldByCustomer) {
    for (const rule of rules) {
      const key = `${customerId}/${rule.grantProductId}`;
      if (held.has(rule.triggerProductId) && !candidates.has(key)) {
        candidates.set(key, { customerId, testClockId: clockOf.get(customerId) ?? null, productId: rule.grantProductId, accessDurationDays: rule.accessDurationDays });
      }
    }
  }
  return [...candidates.values()];
}
