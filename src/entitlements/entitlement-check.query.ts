import type { Tenant } from '../database/tenant';
import { customerIdByStoreIdSql } from '../customer-records/customer-lookup.sql';
import { productIdByStoreIdSql } from '../products/product-lookup.sql';
import { customerNowSql } from '../test-clock-records/test-clock-time.sql';
import { notRunOutSql } from './effective-status';

/** A customer or product named by our id or by the store's id. */
export type Reference = { id: string; storeId?: undefined } | { id?: undefined; storeId: string };

export interface CheckQuery {
  /** A prepared-statement name per SQL text (four variants): PostgreSQL parses and plans each once per connection. */
  name: string;
  sql: string;
  parameters: unknown[];
}

/**
 * The access check as ONE statement: store ids resolve through scalar subqueries on the unique
 * (merchant_id, mode, store_*_id) indexes, entitlements through entitlements_check_idx. Only
 * entitlements active at `now` qualify (expiry is evaluated here, so it is visible from the
 * instant it happens; a test clock's customer's now is the clock's frozen time, DESIGN §14); the one lasting longest wins: no expiry first, then the latest expiry,
 * then unlimited or most remaining uses. Exported so the EXPLAIN test plans exactly this query.
 */
export function buildCheckQuery(tenant: Tenant, customer: Reference, product: Reference, now: Date): CheckQuery {
  // Store ids resolve through the owners' own lookup SQL, embedded as scalar subqueries.
  const customerSql = customer.id !== undefined ? '$3' : customerIdByStoreIdSql('$1', '$2', '$3');
  const productSql = product.id !== undefined ? '$4' : productIdByStoreIdSql('$1', '$2', '$4');
  const sql = `SELECT e.id, e.product_id, e.granted_at, e.expires_at, e.metadata, e.source
    FROM entitlements e
    WHERE e.merchant_id = $1 AND e.mode = $2
      AND e.customer_id = ${customerSql}
      AND e.product_id = ${productSql}
      AND e.status = 'active'
      AND ${notRunOutSql('e', customerNowSql('e.test_clock_id', '$5'))}
    ORDER BY e.expires_at DESC NULLS FIRST, (e.usage_limit - e.usage_count) DESC NULLS FIRST, e.granted_at DESC, e.id DESC
    LIMIT 1`;
  return {
    name: `entitlement_check_${customer.id !== undefined ? 'id' : 'store'}_${product.id !== undefined ? 'id' : 'store'}`,
    sql,
    parameters: [tenant.merchantId, tenant.mode, customer.id ?? customer.storeId, product.id ?? product.storeId, now.toISOString()],
  };
}
