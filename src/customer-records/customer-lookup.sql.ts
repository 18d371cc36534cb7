/**
 * The customers module's SQL for other modules' single statements: a scalar subquery naming the
 * customer with a store id, served by the unique (merchant_id, mode, store_customer_id) index.
 * The access check (entitlements) embeds it so the hot path stays one round trip, while the
 * customers table's SQL is still written only here (DESIGN §1, one owner per table).
 */
export function customerIdByStoreIdSql(merchantParameter: string, modeParameter: string, storeIdParameter: string): string {
  return `(SELECT c.id FROM customers c WHERE c.merchant_id = ${merchantParameter} AND c.mode = ${modeParameter} AND c.store_customer_id = ${storeIdParameter})`;
}
