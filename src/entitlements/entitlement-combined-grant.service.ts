import { Injectable } from '@nestjs/common';
import { CustomerRecordsService } from '../customer-records/customer-records.service';
import { readTogether, StatementRefused } from '../database/combined-statement';
import type { Operation } from '../database/operation';
import { CombinedWrite } from '../database/transaction';
import { UnitOfWork } from '../database/unit-of-work';
import { GrantRulesService } from '../grant-rules/grant-rules.service';
import { ProductsService } from '../products/products.service';
import { EntitlementEntity } from './entitlement.entity';
import { GrantInput, resolvedGrantOf } from './entitlement-grant-resolution.service';
import { newEntitlementOfGrant } from './entitlement-grants.service';
import { ChangedEntitlement, toEntitlementResponse } from './entitlement.mapper';
import { EntitlementsRepository } from './entitlements.repository';

/** The refusal of a combined create whose new customer's store id was taken meanwhile. */
const CUSTOMER_TAKEN = 'customer_taken';

/**
 * The common grant (a product that is no bundle and fires no rule, to a customer on real time) in
 * two round trips, as a download is (bench/README.md, "Creates: round trips"): one statement reads
 * the customer, the product with what it includes and the rules it fires; one statement writes
 * the new customer (when named by a new store id), the entitlement, its event and deliveries, and
 * the idempotency key with its response, all or nothing. Anything else returns null and the
 * caller's transaction (EntitlementGrantResolutionService.grant) decides, with its errors, as it
 * always has: a bundle, a rule, a product that issues license keys, a test clock, a missing or archived product, an unknown customer,
 * a past expiry, and every race the write lost (the store id or the key taken meanwhile).
 */
@Injectable()
export class EntitlementCombinedGrantService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly customers: CustomerRecordsService,
    private readonly products: ProductsService,
    private readonly grantRules: GrantRulesService,
    private readonly entitlements: EntitlementsRepository,
  ) {}

  /** The grant's response (`respond` of what was written, also stored under the idempotency key), or null: the transaction decides. */
  async grant<Result>(operation: Operation, input: GrantInput, respond: (changed: ChangedEntitlement) => Result): Promise<Result | null> {
    if (input.testClockId) return null;
    const { tenant } = operation;
    const { manager } = this.unitOfWork.pool;
    return this.unitOfWork.runShared(operation, async () => {
      const read = await readTogether(manager, {
        customer: this.customers.findPart(tenant, input.customer),
        found: this.products.forGrantPart(tenant, input.product),
        rules: this.grantRules.triggeredByGrantPart(tenant, input.product.id ?? null, input.product.storeId ?? null),
      });
      const now = new Date();
      const { customer: existing, found } = read;
      if (!found || found.product.status === 'archived' || found.included.length > 0 || read.rules.length > 0 || found.product.license) return null;
      if (existing?.test_clock_id) return null;
      if (input.expiresAt && input.expiresAt.getTime() <= now.getTime()) return null;
      const combined = new CombinedWrite();
      let customer = existing;
      if (!customer) {
        // An unknown customer id is a 404: the transaction answers it.
        if (input.customer.storeId === undefined) return null;
        const created = this.customers.newCustomerPart(tenant, input.customer.storeId, now, manager, CUSTOMER_TAKEN);
        combined.add(created.part);
        customer = created.customer;
      }
      const row = {
        ...newEntitlementOfGrant(resolvedGrantOf(input, customer, found.product), now),
        created_at: now,
        updated_at: now,
      };
      const entitlement = manager.create(EntitlementEntity, { ...row, merchant_id: tenant.merchantId, mode: tenant.mode });
      combined.add(this.entitlements.insertPart(tenant, row));
      combined.publish('entitlement.created', tenant, { ...toEntitlementResponse(entitlement, customer.store_customer_id, now) });
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
