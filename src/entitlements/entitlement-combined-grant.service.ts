import { Injectable } from '@nestjs/common';
import { Clock } from '../clock/clock';
import { CustomerRecordsService } from '../customer-records/customer-records.service';
import { readTogether, StatementRefused } from '../database/combined-statement';
import { FastPaths } from '../database/fast-paths';
import type { Operation } from '../database/operation';
import { CombinedWrite } from '../database/transaction';
import { UnitOfWork } from '../database/unit-of-work';
import { GrantRulesService } from '../grant-rules/grant-rules.service';
import { isGrantable } from '../products/product-lookup.sql';
import { ProductsService } from '../products/products.service';
import { isFutureExpiry } from './entitlement-bounds';
import { GrantInput, resolvedGrantOf } from './entitlement-grant-resolution.service';
import { newEntitlementOfGrant, publishGranted } from './entitlement-grants.service';
import { ChangedEntitlement } from './entitlement.mapper';
import { entitlementOfRow, EntitlementsRepository } from './entitlements.repository';

/** The refusal of a combined create whose new customer's store id was taken meanwhile. */
const CUSTOMER_TAKEN = 'customer_taken';
/** The refusal of a combined create whose product was archived after it was read. */
const PRODUCT_CHANGED = 'product_changed';

/**
 * The common grant (a product that is no bundle and fires no rule, to a customer on real time) in
 * two round trips, as a download is (bench/README.md, "Creates: round trips"): one statement reads
 * the customer, the product with what it includes and the rules it fires; one statement writes
 * the new customer (when named by a new store id), the entitlement, its event and deliveries, and
 * the idempotency key with its response, all or nothing, while holding the product grantable
 * (share-locked, as the transaction's read holds it). Anything else returns null and the caller's
 * transaction (EntitlementGrantResolutionService.grant) decides, with its errors: a bundle, a
 * rule, a product that issues license keys (DESIGN §18), a test clock, a missing or archived product, an unknown customer, a past expiry, and every
 * race the write lost (the store id or the key taken meanwhile, the product archived).
 *
 * What it writes, publishes and answers comes from the transaction path's own builders
 * (resolvedGrantOf, newEntitlementOfGrant, entitlementOfRow, publishGranted, the repository's one
 * INSERT); test/e2e/paths-agree.e2e-spec.ts runs both paths on the same inputs and compares.
 */
@Injectable()
export class EntitlementCombinedGrantService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly fastPaths: FastPaths,
    private readonly clock: Clock,
    private readonly customers: CustomerRecordsService,
    private readonly products: ProductsService,
    private readonly grantRules: GrantRulesService,
    private readonly entitlements: EntitlementsRepository,
  ) {}

  /** The grant's response (`respond` of what was written, also stored under the idempotency key), or null: the transaction decides. */
  async grant<Result>(operation: Operation, input: GrantInput, respond: (changed: ChangedEntitlement) => Result): Promise<Result | null> {
    if (!this.fastPaths.enabled || input.testClockId) return null;
    const { tenant } = operation;
    const { manager } = this.unitOfWork.pool;
    return this.unitOfWork.runShared(operation, async () => {
      const read = await readTogether(manager, {
        customer: this.customers.findPart(tenant, input.customer),
        found: this.products.forGrantPart(tenant, input.product, false),
        rules: this.grantRules.triggeredByGrantPart(tenant, input.product.id ?? null, input.product.storeId ?? null),
      });
      // A customer on real time: its now is the real time, which also records the row.
      const now = this.clock.now();
      const { customer: existing, found } = read;
      if (!found || !isGrantable(found.product) || found.included.length > 0 || read.rules.length > 0 || found.product.license) return null;
      if (existing?.test_clock_id) return null;
      if (input.expiresAt && !isFutureExpiry(input.expiresAt, now)) return null;
      const combined = new CombinedWrite();
      let customer = existing;
      if (!customer) {
        // An unknown customer id is a 404: the transaction answers it.
        if (input.customer.storeId === undefined) return null;
        const created = this.customers.newCustomerPart(tenant, input.customer.storeId, now, manager, CUSTOMER_TAKEN);
        combined.add(created.part);
        customer = created.customer;
      }
      combined.add(this.products.grantableLockPart(tenant, found.product.id, PRODUCT_CHANGED));
      const row = newEntitlementOfGrant(resolvedGrantOf(input, customer, found.product), now, now);
      combined.add(this.entitlements.insertPart(manager, tenant, [row]));
      const entitlement = entitlementOfRow(manager, tenant, row);
      await publishGranted(combined, tenant, [entitlement], new Map([[customer.id, customer.store_customer_id]]), now);
      const result = respond({ entitlement, storeCustomerId: customer.store_customer_id, at: now });
      try {
        await this.unitOfWork.runCombined(operation, combined, result);
      } catch (error) {
        if (error instanceof StatementRefused) return null;
        throw error;
      }
      return result;
    });
  }
}
