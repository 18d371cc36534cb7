import type { LineItemStatus, SkippedReason } from './order-line-item.entity';
import type { OrderStatus } from './order.entity';
import type { ProductStatus } from '../products/product.entity';
import { isGrantable } from '../products/product-lookup.sql';

/**
 * An order's status from its line items: `refunded` once every line item that granted something
 * is refunded, `partially_refunded` while only some are, `active` otherwise (an order that granted
 * nothing, all unmatched or skipped, stays active).
 */
export function orderStatusOf(lineItems: ReadonlyArray<{ status: LineItemStatus }>): OrderStatus {
  const granting = lineItems.filter((item) => item.status === 'granted' || item.status === 'refunded');
  const refunded = granting.filter((item) => item.status === 'refunded').length;
  if (refunded === 0) return 'active';
  return refunded === granting.length ? 'refunded' : 'partially_refunded';
}

/** What a new line item becomes, from the product it matched (null: none). */
export interface LineItemOutcome {
  status: Extract<LineItemStatus, 'granted' | 'unmatched' | 'skipped'>;
  skippedReason: SkippedReason | null;
}

/** Stores sell other things: no product is `unmatched`; an archived one is `skipped`; any other grants. */
export function lineItemOutcome(product: { status: ProductStatus } | null): LineItemOutcome {
  if (product === null) return { status: 'unmatched', skippedReason: null };
  if (!isGrantable(product)) return { status: 'skipped', skippedReason: 'product_archived' };
  return { status: 'granted', skippedReason: null };
}

/** A usage_limited product grants its limit once per unit bought. */
export function orderedUsageLimit(product: { entitlement_type: string; usage_limit: number | null }, quantity: number): number | undefined {
  return product.entitlement_type === 'usage_limited' && product.usage_limit !== null ? product.usage_limit * quantity : undefined;
}
