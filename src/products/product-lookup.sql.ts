/**
 * The products module's SQL for other modules' single statements: a scalar subquery naming the
 * product with a store id, served by the unique (merchant_id, mode, store_product_id) index.
 * The access check (entitlements) embeds it so the hot path stays one round trip, while the
 * products table's SQL is still written only here (DESIGN §1, one owner per table).
 */
export function productIdByStoreIdSql(merchantParameter: string, modeParameter: string, storeIdParameter: string): string {
  return `(SELECT p.id FROM products p WHERE p.merchant_id = ${merchantParameter} AND p.mode = ${modeParameter} AND p.store_product_id = ${storeIdParameter})`;
}

/**
 * The ids a grant of one product brings in (DESIGN §10): the product named by our id ($id) or its
 * store id ($storeId), and the active products it includes when it is a bundle. The grant-rules
 * module embeds it to read, in the grant's combined read, the rules those grants fire.
 */
export function grantedProductIdsSql(merchantParameter: string, modeParameter: string, idParameter: string, storeIdParameter: string): string {
  const named = `(SELECT p.id FROM products p WHERE p.merchant_id = ${merchantParameter} AND p.mode = ${modeParameter} AND (p.id = ${idParameter} OR p.store_product_id = ${storeIdParameter}))`;
  return `SELECT ${named} UNION ALL SELECT item.included_product_id FROM product_bundle_items item
    JOIN products included ON included.merchant_id = item.merchant_id AND included.mode = item.mode AND included.id = item.included_product_id
    WHERE item.merchant_id = ${merchantParameter} AND item.mode = ${modeParameter} AND item.bundle_product_id = ${named} AND included.status = 'active'`;
}
