import type { TriggeredGrant } from '../grant-rules/grant-rules.service';
import type { ProductEntity } from '../products/product.entity';

/**
 * What a grant's combined read already learned (the products a bundle includes, the rules the
 * granted products fire), so the grant asks the database only for what it does not know. A single
 * grant reads its product with both in one statement; bulk grants start with nothing known.
 */
export class GrantLookups {
  private readonly included = new Map<string, ProductEntity[]>();
  /** Rules read together for a set of trigger products, in the rules' order (created_at, id). */
  private rules: { triggers: ReadonlySet<string>; rules: readonly TriggeredGrant[] } | null = null;

  /** The product's included products (active ones, in the bundle's order) and the rules it and they fire. */
  knowGrantOf(productId: string, included: ProductEntity[], rules: readonly TriggeredGrant[]): void {
    this.included.set(productId, included);
    this.rules = { triggers: new Set([productId, ...included.map((product) => product.id)]), rules };
  }

  /** Each product's included products, or null when one of them is not known. */
  includedOf(productIds: readonly string[]): Map<string, ProductEntity[]> | null {
    const known = new Map<string, ProductEntity[]>();
    for (const productId of productIds) {
      const included = this.included.get(productId);
      if (!included) return null;
      known.set(productId, included);
    }
    return known;
  }

  /** The rules these products fire, in the rules' order, or null when one of them is not known. */
  rulesTriggeredBy(productIds: readonly string[]): TriggeredGrant[] | null {
    const known = this.rules;
    if (!known || productIds.some((productId) => !known.triggers.has(productId))) return null;
    const asked = new Set(productIds);
    return known.rules.filter((rule) => asked.has(rule.triggerProductId));
  }
}
