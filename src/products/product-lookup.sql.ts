/**
 * The products module's SQL for other modules' single statements: a scalar subquery naming the
 * product with a store id, served by the unique (merchant_id, mode, store_product_id) index.
 * The access check (entitlements) embeds it so the hot path stays one round trip, while the
 * products table's SQL is still written only here (DESIGN §1, one owner per table).
 */
export function productIdByStoreIdSql(merchantParameter: string, modeParameter: string, storeIdParameter: string): string {
  return `(SELECT p.id FROM products p WHERE p.merchant_id = ${merchantParameter} AND p.mode = ${modeParameter} AND p.store_product_id = ${storeIdParameter})`;
}
