import { Injectable } from '@nestjs/common';
import type { Tenant } from '../database/tenant';
import type { EventSink, Transaction } from '../database/transaction';
import { Clock } from '../clock/clock';
import { storedJsonb } from '../database/jsonb';
import { isGrantable } from '../products/product-lookup.sql';
import { GrantRulesService } from '../grant-rules/grant-rules.service';
import { LicenseRecordsService } from '../license-records/license-records.service';
import { generateId } from '../ids/id';
import type { ProductEntity } from '../products/product.entity';
import { ProductsService } from '../products/products.service';
import { EntitlementEntity, EntitlementSource, EntitlementStatus } from './entitlement.entity';
import { toEntitlementResponse } from './entitlement.mapper';
import { EntitlementsRepository, NewEntitlement, StoredNewEntitlement } from './entitlements.repository';
import { GrantLookups } from './grant-lookups';
import { bundleChildrenOf, defaultUsageLimit, grantsThatFireRules, ruleGrantCandidates } from './grant-cascade';
import { expiryAfterDays } from './entitlement-bounds';


/**
 * A grant whose customer and product are known and allowed (the product exists and is not
 * archived; `expiresAt`, when given, is in the future): what `grantResolved` writes.
 */
export interface ResolvedGrant {
  /** testClockId: the test clock the customer is bound to (DESIGN §14), copied to the entitlement. */
  customer: { id: string; storeCustomerId: string; testClockId: string | null };
  product: ProductEntity;
  source: EntitlementSource;
  status?: Extract<EntitlementStatus, 'active' | 'pending'>;
  expiresAt?: Date | null;
  usageLimit?: number | null;
  storeOrderId?: string | null;
  storeLineItemId?: string | null;
  metadata?: Record<string, unknown>;
}

/** What a grant decides; the rest of a new entitlement is the same for every grant. */
type GrantedFields = Pick<
  NewEntitlement,
  'id' | 'customer_id' | 'test_clock_id' | 'product_id' | 'status' | 'expires_at' | 'usage_limit' | 'source' | 'store_order_id' | 'store_line_item_id' | 'parent_entitlement_id' | 'metadata'
>;

/**
 * Writes grants, one or many at once, with everything a grant brings in the same transaction
 * (DESIGN §10): a bundle's included products as its children, then the grant rules triggered by
 * the granted products, unless the grant is a rule's own (rules never chain). Each entitlement
 * publishes entitlement.created. Set-based, so an import batch of 500 rows costs a handful of
 * statements (one insert of entitlements, one of events, one lookup per kind) instead of several
 * per row; a single grant takes the same path.
 */
@Injectable()
export class EntitlementGrantsService {
  constructor(
    private readonly entitlements: EntitlementsRepository,
    private readonly products: ProductsService,
    private readonly grantRules: GrantRulesService,
    private readonly clock: Clock,
    private readonly licenses: LicenseRecordsService,
  ) {}

  /**
   * Grants each, in order; returns the granted entitlements in the grants' order (children and
   * rule grants not included). `lookups`: what the caller's read already learned.
   */
  async grantResolved(tx: Transaction, tenant: Tenant, grants: ResolvedGrant[], now: Date, lookups: GrantLookups = new GrantLookups()): Promise<EntitlementEntity[]> {
    if (grants.length === 0) return [];
    const storeCustomerIds = new Map(grants.map(({ customer }) => [customer.id, customer.storeCustomerId]));
    const parents = await this.insertAndPublish(
      tx,
      tenant,
      storeCustomerIds,
      now,
      grants.map((grant) => grantedFieldsOf(grant, now)),
      new Map(grants.map(({ product }) => [product.id, product])),
    );
    const children = await this.grantBundleChildren(tx, tenant, parents, storeCustomerIds, now, lookups);
    await this.fireGrantRules(tx, tenant, grantsThatFireRules(parents, children), storeCustomerIds, now, lookups);
    return parents;
  }

  /** One child per product each bundle includes: the parent's status and expiry, the child product's usage limit. */
  private async grantBundleChildren(
    tx: Transaction,
    tenant: Tenant,
    parents: EntitlementEntity[],
    storeCustomerIds: Map<string, string>,
    now: Date,
    lookups: GrantLookups,
  ): Promise<EntitlementEntity[]> {
    const productIds = [...new Set(parents.map((parent) => parent.product_id))];
    const included = lookups.includedOf(productIds) ?? (await this.products.includedProductsForGrant(tx, tenant, productIds));
    const products = new Map([...included.values()].flat().map((product) => [product.id, product]));
    return this.insertAndPublish(tx, tenant, storeCustomerIds, now, bundleChildrenOf(parents, included, () => generateId('ent')), products);
  }

  /**
   * Each enabled rule triggered by these entitlements' products grants its product to their
   * customer (source rule), unless the customer already holds an active entitlement for it (a
   * grant of this call included) or an earlier rule grants it here. A rule whose product is gone
   * or archived is skipped: the trigger's grant still succeeds.
   */
  private async fireGrantRules(
    tx: Transaction,
    tenant: Tenant,
    triggering: EntitlementEntity[],
    storeCustomerIds: Map<string, string>,
    now: Date,
    lookups: GrantLookups,
  ): Promise<void> {
    if (triggering.length === 0) return;
    const productIds = [...new Set(triggering.map((entitlement) => entitlement.product_id))];
    const rules = lookups.rulesTriggeredBy(productIds) ?? (await this.grantRules.triggeredBy(tx, tenant, productIds));
    if (rules.length === 0) return;
    const pending = ruleGrantCandidates(triggering, rules);
    const alreadyHeld = await this.entitlements.activePairs(
      tx,
      tenant,
      pending.map((candidate) => candidate.customerId),
      pending.map((candidate) => candidate.productId),
      now,
    );
    const products = new Map<string, ProductEntity | null>();
    const ruleGrants: ResolvedGrant[] = [];
    for (const candidate of pending) {
      if (alreadyHeld.has(`${candidate.customerId}/${candidate.productId}`)) continue;
      if (!products.has(candidate.productId)) products.set(candidate.productId, await this.products.findForGrant(tx, tenant, { id: candidate.productId }));
      const product = products.get(candidate.productId);
      if (!product || !isGrantable(product)) continue;
      ruleGrants.push({
        customer: { id: candidate.customerId, storeCustomerId: storeCustomerIds.get(candidate.customerId) ?? '', testClockId: candidate.testClockId },
        product,
        source: 'rule',
        expiresAt: expiryAfterDays(now, candidate.accessDurationDays) ?? undefined,
      });
    }
    await this.grantResolved(tx, tenant, ruleGrants, now, lookups);
  }

  private async insertAndPublish(
    tx: Transaction,
    tenant: Tenant,
    storeCustomerIds: Map<string, string>,
    now: Date,
    rows: GrantedFields[],
    products: ReadonlyMap<string, ProductEntity>,
  ): Promise<EntitlementEntity[]> {
    if (rows.length === 0) return [];
    const recordedAt = this.clock.now();
    const inserted = await this.entitlements.insertMany(
      tx,
      tenant,
      rows.map((fields) => newEntitlementOf(fields, now, recordedAt)),
    );
    await publishGranted(tx, tenant, inserted, storeCustomerIds, now);
    // DESIGN §18: a product that issues license keys gives each of its entitlements one, in this transaction.
    await this.licenses.issue(tx, tenant, inserted, (productId) => products.get(productId)?.license);
    return inserted;
  }
}

/**
 * entitlement.created for each new entitlement, as its grant's response shows it at the customer's
 * `now`: the one place the event is built, for the transaction (`tx`) and the combined write alike.
 */
export async function publishGranted(
  events: EventSink,
  tenant: Tenant,
  granted: readonly EntitlementEntity[],
  storeCustomerIds: ReadonlyMap<string, string>,
  now: Date,
): Promise<void> {
  await events.publishMany(
    'entitlement.created',
    tenant,
    granted.map((entitlement) => ({ ...toEntitlementResponse(entitlement, storeCustomerIds.get(entitlement.customer_id) ?? '', now) })),
  );
}

/** What a resolved grant decides at `now`: the product's defaults where the grant leaves a field out. */
function grantedFieldsOf(grant: ResolvedGrant, now: Date): GrantedFields {
  return {
    id: generateId('ent'),
    customer_id: grant.customer.id,
    test_clock_id: grant.customer.testClockId,
    product_id: grant.product.id,
    status: grant.status ?? 'active',
    expires_at: grant.expiresAt ?? defaultExpiry(grant.product, now),
    usage_limit: grant.usageLimit ?? defaultUsageLimit(grant.product),
    source: grant.source,
    store_order_id: grant.storeOrderId ?? null,
    store_line_item_id: grant.storeLineItemId ?? null,
    parent_entitlement_id: null,
    // As jsonb will store it: the answer, the event and the replay show what a GET shows.
    metadata: storedJsonb(grant.metadata ?? {}),
  };
}

/**
 * A new entitlement granted at the customer's `now` (its test clock's time when bound to one),
 * recorded at `recordedAt` (the real time: created_at and updated_at), as every grant writes it.
 */
function newEntitlementOf(fields: GrantedFields, now: Date, recordedAt: Date): StoredNewEntitlement {
  return {
    ...fields,
    granted_at: now,
    revoked_at: null,
    revocation_reason: null,
    suspended_at: null,
    suspension_reason: null,
    usage_count: 0,
    created_at: recordedAt,
    updated_at: recordedAt,
  };
}

/**
 * The row a single grant that brings nothing with it (no bundle's children, no rule fired) writes:
 * the combined create writes it with its other parts in one statement; the transaction's grant
 * builds each of its rows with the same functions.
 */
export function newEntitlementOfGrant(grant: ResolvedGrant, now: Date, recordedAt: Date): StoredNewEntitlement {
  return newEntitlementOf(grantedFieldsOf(grant, now), now, recordedAt);
}

function defaultExpiry(product: ProductEntity, now: Date): Date | null {
  return product.entitlement_type === 'time_limited' ? expiryAfterDays(now, product.access_duration_days) : null;
}
