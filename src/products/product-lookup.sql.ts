import type { ProductEntity, ProductStatus } from './product.entity';

/**
 * The products module's SQL for other modules' single statements, and the rules it states in both
 * SQL and TypeScript (each written once here; test/e2e/rules-agree.e2e-spec.ts runs both forms).
 */

/** The one status a product can be granted in (an archived product keeps its entitlements, takes no new grant). */
const GRANTABLE_STATUS: ProductStatus = 'active';

/** Whether a product can be granted now: every grant, of every source, asks this (or its SQL form). */
export function isGrantable(product: Pick<ProductEntity, 'status'>): boolean {
  return product.status === GRANTABLE_STATUS;
}

/** isGrantable as SQL, for the row `alias` of products. */
export function grantableSql(alias: string): string {
  return `${alias}.status = '${GRANTABLE_STATUS}'`;
}

/**
 * A scalar subquery naming the product with a store id, served by the unique (merchant_id, mode,
 * store_product_id) index. The access check (entitlements) embeds it so the hot path stays one
 * round trip, while the products table's SQL is still written only here (DESIGN §1).
 */
export function productIdByStoreIdSql(merchantParameter: string, modeParameter: string, storeIdParameter: string): string {
  return `(SELECT p.id FROM products p WHERE p.merchant_id = ${merchantParameter} AND p.mode = ${modeParameter} AND p.store_product_id = ${storeIdParameter})`;
}

/**
 * FROM … WHERE of the products a bundle grants with it (DESIGN §10): its items (`item`) and their
 * products (`included`) that are grantable, for the bundles `bundleCondition` names (on
 * `item.bundle_product_id`). The one definition of "a bundle's active included products".
 */
export function grantableIncludedSql(merchantParameter: string, modeParameter: string, bundleCondition: string): string {
  return `product_bundle_items item
    JOIN products included ON included.merchant_id = item.merchant_id AND included.mode = item.mode AND included.id = item.included_product_id
    WHERE item.merchant_id = ${merchantParameter} AND item.mode = ${modeParameter} AND ${bundleCondition} AND ${grantableSql('included')}`;
}

/**
 * The ids a grant of one product brings in (DESIGN §10): the product named by our id ($id) or its
 * store id ($storeId), and the grantable products it includes when it is a bundle. The
 * grant-rules module embeds it to read, in the grant's combined read, the rules those grants fire.
 */
export function grantedProductIdsSql(merchantParameter: string, modeParameter: string, idParameter: string, storeIdParameter: string): string {
  const named = `(SELECT p.id FROM products p WHERE p.merchant_id = ${merchantParameter} AND p.mode = ${modeParameter} AND (p.id = ${idParameter} OR p.store_product_id = ${storeIdParameter}))`;
  return `SELECT ${named} UNION ALL SELECT item.included_product_id FROM ${grantableIncludedSql(merchantParameter, modeParameter, `item.bundle_product_id = ${named}`)}`;
}
