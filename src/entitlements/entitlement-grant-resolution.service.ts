import { Injectable } from '@nestjs/common';
import { CustomerRecordsService } from '../customer-records/customer-records.service';
import { TestClockTime } from '../test-clock-records/test-clock-time.service';
import type { Tenant } from '../database/tenant';
import type { Transaction } from '../database/transaction';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { readTogether } from '../database/combined-statement';
import { GrantRulesService } from '../grant-rules/grant-rules.service';
import type { CustomerEntity } from '../customer-records/customer.entity';
import type { ProductEntity } from '../products/product.entity';
import { ProductsService } from '../products/products.service';
import { GrantLookups } from './grant-lookups';
import { refuseUnlessFutureExpiry } from './entitlement-bounds';
import { isGrantable } from '../products/product-lookup.sql';
import { Reference } from './entitlement-check.query';
import type { ChangedEntitlement } from './entitlement.mapper';
import { EntitlementEntity, EntitlementSource, EntitlementStatus } from './entitlement.entity';
import { EntitlementGrantsService, ResolvedGrant } from './entitlement-grants.service';

export type { ResolvedGrant } from './entitlement-grants.service';

/** A grant, from any source (DESIGN §10): the product's defaults apply where a field is left out. */
export interface GrantInput {
  customer: Reference;
  /** A test clock to bind a new customer to (DESIGN §14); an existing customer must be bound to it. */
  testClockId?: string | null;
  product: Reference;
  source: EntitlementSource;
  /** Default active; `pending` waits for activate. */
  status?: Extract<EntitlementStatus, 'active' | 'pending'>;
  /** Default from a time_limited product; must be in the future. */
  expiresAt?: Date | null;
  /** Default from a usage_limited product. */
  usageLimit?: number | null;
  storeOrderId?: string | null;
  storeLineItemId?: string | null;
  metadata?: Record<string, unknown>;
}

/** A grant whose customer and product were found (and checked) by the caller. */
export function resolvedGrantOf(input: GrantInput, customer: Pick<CustomerEntity, 'id' | 'store_customer_id' | 'test_clock_id'>, product: ProductEntity): ResolvedGrant {
  return {
    customer: { id: customer.id, storeCustomerId: customer.store_customer_id, testClockId: customer.test_clock_id },
    product,
    source: input.source,
    status: input.status,
    expiresAt: input.expiresAt,
    usageLimit: input.usageLimit,
    storeOrderId: input.storeOrderId,
    storeLineItemId: input.storeLineItemId,
    metadata: input.metadata,
  };
}

/**
 * Grant resolution: turns a grant from any source (DESIGN §10) into a resolved one (the customer
 * found or created by its store id, the product found and checked), inside the caller's
 * transaction, then has EntitlementGrantsService grant it with its bundle children and grant rules.
 * Exported for the modules that create entitlements (orders, subscriptions, imports).
 */
@Injectable()
export class EntitlementGrantResolutionService {
  constructor(
    private readonly customers: CustomerRecordsService,
    private readonly products: ProductsService,
    private readonly grants: EntitlementGrantsService,
    private readonly time: TestClockTime,
    private readonly grantRules: GrantRulesService,
  ) {}

  /**
   * Grants a product and publishes entitlement.created. In the same transaction, whatever the
   * source (DESIGN §10): a bundle's included products are granted as its children, then the grant
   * rules of the product and of those children fire, unless this grant is a rule's own (rules never
   * chain).
   */
  async grant(tx: Transaction, tenant: Tenant, input: GrantInput): Promise<ChangedEntitlement> {
    const customer = await this.customers.resolveForWrite(tx, tenant, input.customer, input.testClockId);
    // The customer's now: its test clock's frozen time when it is bound to one.
    const now = await this.time.nowFor(tx, tenant, customer.test_clock_id);
    refuseUnlessFutureExpiry(input.expiresAt, now);
    // The product (share-locked: an archive committed before is seen, one after waits for this
    // grant), what it includes and the rules they fire: one statement for the whole grant's reads.
    const id = input.product.id ?? null;
    const storeId = input.product.storeId ?? null;
    const read = await readTogether(tx.manager, {
      found: this.products.forGrantPart(tenant, input.product, true),
      rules: this.grantRules.triggeredByGrantPart(tenant, id, storeId),
    });
    const product = read.found?.product ?? null;
    if (!product) {
      const named = input.product.id !== undefined ? `id '${input.product.id}'` : `store_product_id '${input.product.storeId}'`;
      throw new ApiError(ErrorCode.PRODUCT_NOT_FOUND, `No product with ${named}`, input.product.id !== undefined ? 'product_id' : 'store_product_id');
    }
    if (!isGrantable(product)) {
      throw new ApiError(ErrorCode.PRODUCT_ARCHIVED, `Product '${product.id}' is archived and cannot be granted`);
    }
    const resolved = resolvedGrantOf(input, customer, product);
    const lookups = new GrantLookups();
    lookups.knowGrantOf(product.id, read.found?.included ?? [], read.rules);
    const [entitlement] = await this.grants.grantResolved(tx, tenant, [resolved], now, lookups);
    return { entitlement, storeCustomerId: customer.store_customer_id, at: now };
  }

  /**
   * Many grants whose customers and products the caller has resolved and checked (an import
   * batch): the same rules, children, grant rules and events as `grant`, in a few set-based
   * statements. Returns the granted entitlements in the grants' order. Grants are made per test
   * clock of their customers (DESIGN §14), each group at its customers' now.
   */
  async grantMany(tx: Transaction, tenant: Tenant, grants: ResolvedGrant[]): Promise<EntitlementEntity[]> {
    const groups = new Map<string | null, number[]>();
    grants.forEach((grant, index) => groups.set(grant.customer.testClockId, [...(groups.get(grant.customer.testClockId) ?? []), index]));
    const nowOf = await this.time.nowsFor(tx, tenant, [...groups.keys()]);
    for (const grant of grants) refuseUnlessFutureExpiry(grant.expiresAt, nowOf(grant.customer.testClockId));
    const granted: EntitlementEntity[] = new Array<EntitlementEntity>(grants.length);
    for (const [testClockId, indexes] of groups) {
      const entitlements = await this.grants.grantResolved(tx, tenant, indexes.map((index) => grants[index]), nowOf(testClockId));
      indexes.forEach((index, position) => (granted[index] = entitlements[position]));
    }
    return granted;
  }
}
