import type { SearchHit } from '../database/search-hit';
import { Injectable } from '@nestjs/common';
import type { Tenant } from '../database/tenant';
import { CustomerEntity } from '../customer-records/customer.entity';
import { CustomerRecordsService } from '../customer-records/customer-records.service';
import { TestClockTime } from '../test-clock-records/test-clock-time.service';
import type { Operation } from '../database/operation';
import { UnitOfWork } from '../database/unit-of-work';
import type { Reader, Transaction } from '../database/transaction';
import { PageResult } from '../envelope/page-result';
import { EntitlementGrantResolutionService } from '../entitlements/entitlement-grant-resolution.service';
import { EntitlementTransitionsService } from '../entitlements/entitlement-transitions.service';
import type { EntitlementStatus } from '../entitlements/entitlement.entity';
import { EntitlementsService } from '../entitlements/entitlements.service';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { generateId, isValidId } from '../ids/id';
import { toPageRequest, toPageResult } from '../pagination/page';
import { ProductEntity } from '../products/product.entity';
import { ProductsService } from '../products/products.service';
import { PutSubscriptionDto } from './dto/put-subscription.dto';
import { ListSubscriptionsQueryDto } from './dto/subscription-query.dto';
import { SubscriptionResponseDto } from './dto/subscription-response.dto';
import { SubscriptionEntity, SubscriptionStatus } from './subscription.entity';
import { SubscriptionsRepository } from './subscriptions.repository';
import { STORE_ID_MAX_LENGTH } from '../validation/input-bounds';
import { atMostOne, OneOf } from '../validation/exactly-one';
import { EntitlementTarget, subscriptionStep } from './subscription-step';

/** What a put answers: the subscription, and whether this put created it (201) or not (200). */
export interface PutResult {
  subscription: SubscriptionResponseDto;
  created: boolean;
}

/** The entitlement a subscription's status calls for. */
const ENTITLEMENT_TARGET: Record<SubscriptionStatus, EntitlementTarget> = {
  active: 'active',
  trialing: 'active',
  past_due: 'active',
  paused: 'suspended',
  canceled: 'expired',
};

const PAUSED_REASON = 'subscription_paused';

const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);

/** The named customer, when the put names one. */
type CustomerName = { id: string } | { storeId: string };
/** The named product, when the put names one. */
type ProductName = { id: string } | { storeId: string } | { variantId: string };

const customerNameOf = (named: OneOf<'customer_id' | 'store_customer_id'> | null): CustomerName | null =>
  named === null ? null : named.field === 'customer_id' ? { id: named.value } : { storeId: named.value };

/**
 * Store subscriptions (DESIGN §10): each put records the store's state and keeps one
 * subscription_linked entitlement in step with it, through the entitlements' lifecycle, in the
 * put's transaction. The subscription row is locked first, so puts of one subscription serialize.
 */
@Injectable()
export class SubscriptionsService {
  constructor(
    private readonly subscriptions: SubscriptionsRepository,
    private readonly grantResolution: EntitlementGrantResolutionService,
    private readonly transitions: EntitlementTransitionsService,
    private readonly entitlements: EntitlementsService,
    private readonly customers: CustomerRecordsService,
    private readonly products: ProductsService,
    private readonly unitOfWork: UnitOfWork,
    private readonly time: TestClockTime,
  ) {}

  /** GET /v1/search's subscriptions (search/search.service.ts), read where the caller says (the replica). */
  search(db: Reader, tenant: Tenant, term: string, limit: number): Promise<SearchHit[]> {
    return this.subscriptions.search(db, tenant, term, limit);
  }

  async put(operation: Operation, storeSubscriptionId: string, body: PutSubscriptionDto): Promise<PutResult> {
    // The path names the subscription it creates: the bound every store id has (the document declares it).
    if (storeSubscriptionId.length > STORE_ID_MAX_LENGTH) {
      throw new ApiError(ErrorCode.INVALID_PARAMETER, `Invalid 'store_subscription_id': it must be at most ${STORE_ID_MAX_LENGTH} characters`, 'store_subscription_id');
    }
    const customerName = customerNameOf(atMostOne({ customer_id: body.customer_id, store_customer_id: body.store_customer_id }));
    const namedProduct = atMostOne({ product_id: body.product_id, store_product_id: body.store_product_id, store_variant_id: body.store_variant_id });
    const productName: ProductName | null =
      namedProduct === null
        ? null
        : namedProduct.field === 'product_id'
          ? { id: namedProduct.value }
          : namedProduct.field === 'store_product_id'
            ? { storeId: namedProduct.value }
            : { variantId: namedProduct.value };
    const storeUpdatedAt = body.store_updated_at !== undefined ? new Date(body.store_updated_at) : null;
    const tenant = operation.tenant;
    return this.unitOfWork.run(operation, async (tx) => {
      let subscription = await this.subscriptions.lockByStoreId(tx, tenant, storeSubscriptionId);
      let created = false;
      if (!subscription) {
        if (!customerName) throw new ApiError(ErrorCode.MISSING_REQUIRED_FIELD, "The first put needs 'customer_id' or 'store_customer_id'", 'customer_id');
        if (!productName) throw new ApiError(ErrorCode.MISSING_REQUIRED_FIELD, "The first put needs 'product_id', 'store_product_id' or 'store_variant_id'", 'product_id');
        const customer = await this.resolveCustomer(tx, tenant, customerName, body.test_clock ?? null);
        const product = await this.resolveProduct(tx, tenant, productName);
        created = await this.subscriptions.insertIfAbsent(tx, tenant, {
          id: generateId('sub'),
          store_subscription_id: storeSubscriptionId,
          customer_id: customer.id,
          product_id: product.id,
          status: body.status,
          current_period_end: null,
          cancel_at_period_end: false,
          store_updated_at: null,
          entitlement_id: null,
        });
        // Not created: a concurrent first put inserted it and committed; this put follows it.
        subscription = await this.subscriptions.lockByStoreId(tx, tenant, storeSubscriptionId);
        if (!subscription) throw new Error(`Subscription ${storeSubscriptionId} vanished after its insert`);
      }
      const customer = await this.customers.require(tx, tenant, subscription.customer_id);
      this.customers.assertBoundTo(customer, body.test_clock ?? null);
      if (!created) await this.refuseChanges(tx, tenant, subscription, customer, customerName, productName);
      if (!created && storeUpdatedAt && subscription.store_updated_at && storeUpdatedAt.getTime() < subscription.store_updated_at.getTime()) {
        // Store webhooks arrive out of order: an older state changes nothing.
        return { subscription: await this.response(tx, tenant, subscription, customer, false), created: false };
      }
      const state = {
        status: body.status,
        current_period_end: body.current_period_end === undefined ? subscription.current_period_end : body.current_period_end === null ? null : new Date(body.current_period_end),
        cancel_at_period_end: body.cancel_at_period_end ?? subscription.cancel_at_period_end,
        store_updated_at: storeUpdatedAt ?? subscription.store_updated_at,
        entitlement_id: subscription.entitlement_id,
      };
      state.entitlement_id = await this.keepEntitlementInStep(tx, tenant, { ...subscription, ...state }, customer);
      const saved = await this.subscriptions.saveState(tx, tenant, subscription.id, state);
      const response = await this.response(tx, tenant, saved, customer, true);
      await tx.publish(created ? 'subscription.created' : 'subscription.updated', tenant, { ...response });
      return { subscription: response, created };
    });
  }

  async get(tenant: Tenant, subscriptionId: string): Promise<SubscriptionResponseDto> {
    const subscription = isValidId('sub', subscriptionId) ? await this.subscriptions.findById(this.unitOfWork.pool, tenant, subscriptionId) : null;
    if (!subscription) throw new ApiError(ErrorCode.SUBSCRIPTION_NOT_FOUND, `No subscription with id '${subscriptionId}'`);
    return this.read(tenant, subscription);
  }

  async getByStoreId(tenant: Tenant, storeSubscriptionId: string): Promise<SubscriptionResponseDto> {
    const subscription = await this.subscriptions.findByStoreId(this.unitOfWork.pool, tenant, storeSubscriptionId);
    if (!subscription) throw new ApiError(ErrorCode.SUBSCRIPTION_NOT_FOUND, `No subscription with store_subscription_id '${storeSubscriptionId}'`);
    return this.read(tenant, subscription);
  }

  /**
   * The tenant's subscriptions, newest first, optionally a customer's (an unknown customer has
   * none), by store status, or searched by exact id or store id. Read by page: one read each for
   * the page's customers and entitlements.
   */
  async list(tenant: Tenant, query: ListSubscriptionsQueryDto): Promise<PageResult<SubscriptionResponseDto>> {
    const customerName = customerNameOf(atMostOne({ customer_id: query.customer_id, store_customer_id: query.store_customer_id }));
    const page = toPageRequest(query);
    const db = this.unitOfWork.replica;
    // By id: that customer (a malformed or unknown id has none); by store id: its start, as every store-id filter.
    if (customerName !== null && 'id' in customerName && !isValidId('cus', customerName.id)) return new PageResult([], { total: 0, limit: page.limit, has_more: false, next_cursor: null });
    const customerId = customerName !== null && 'id' in customerName ? customerName.id : undefined;
    const customerCondition =
      customerName !== null && 'storeId' in customerName ? this.customers.storeIdPrefixCondition(tenant, 'subscription.customer_id', customerName.storeId) : undefined;
    const { rows, total } = await this.subscriptions.list(db, tenant, { customerId, customerCondition, status: query.status, search: query.search }, page);
    const pageRows = rows.slice(0, page.limit);
    const customers = await this.customers.byIds(db, tenant, pageRows.map((row) => row.customer_id));
    const statuses = await this.entitlements.statusesOf(db, tenant, pageRows.flatMap((row) => (row.entitlement_id ? [row.entitlement_id] : [])));
    const productNames = await this.products.namesOf(db, tenant, pageRows.map((row) => row.product_id));
    return toPageResult(
      rows,
      page,
      (row) => row.created_at,
      (row) => toSubscriptionResponse(row, customers.get(row.customer_id), productNames.get(row.product_id) ?? '', statuses, true),
      total,
    );
  }

  private async read(tenant: Tenant, subscription: SubscriptionEntity): Promise<SubscriptionResponseDto> {
    const db = this.unitOfWork.pool;
    return this.response(db, tenant, subscription, await this.customers.require(db, tenant, subscription.customer_id), true);
  }

  private async response(db: Reader, tenant: Tenant, subscription: SubscriptionEntity, customer: CustomerEntity, applied: boolean): Promise<SubscriptionResponseDto> {
    const statuses = await this.entitlements.statusesOf(db, tenant, subscription.entitlement_id ? [subscription.entitlement_id] : []);
    const productNames = await this.products.namesOf(db, tenant, [subscription.product_id]);
    return toSubscriptionResponse(subscription, customer, productNames.get(subscription.product_id) ?? '', statuses, applied);
  }

  private resolveCustomer(tx: Transaction, tenant: Tenant, name: CustomerName, testClockId: string | null): Promise<CustomerEntity> {
    return this.customers.resolveForWrite(tx, tenant, 'id' in name ? { id: name.id } : { storeId: name.storeId }, testClockId);
  }

  private async resolveProduct(tx: Transaction, tenant: Tenant, name: ProductName): Promise<ProductEntity> {
    let product: ProductEntity | null;
    let param: string;
    if ('variantId' in name) {
      product = await this.products.findByStoreVariantId(tx, tenant, name.variantId);
      param = 'store_variant_id';
    } else {
      product = await this.products.findForGrant(tx, tenant, name);
      param = 'id' in name ? 'product_id' : 'store_product_id';
    }
    const value = 'id' in name ? name.id : 'storeId' in name ? name.storeId : name.variantId;
    if (!product) throw new ApiError(ErrorCode.PRODUCT_NOT_FOUND, `No product with ${param} '${value}'`, param);
    if (product.entitlement_type !== 'subscription_linked') {
      throw new ApiError(
        ErrorCode.INVALID_PARAMETER,
        `Product '${product.id}' is ${product.entitlement_type}; subscriptions drive subscription_linked products only`,
        param,
      );
    }
    return product;
  }

  /** A later put may repeat the customer and product, never change them. */
  private async refuseChanges(
    tx: Transaction,
    tenant: Tenant,
    subscription: SubscriptionEntity,
    customer: CustomerEntity,
    customerName: CustomerName | null,
    productName: ProductName | null,
  ): Promise<void> {
    if (customerName && ('id' in customerName ? customerName.id !== customer.id : customerName.storeId !== customer.store_customer_id)) {
      throw new ApiError(
        ErrorCode.SUBSCRIPTION_CONFLICT,
        `Subscription '${subscription.store_subscription_id}' belongs to customer '${customer.id}'; its customer cannot change`,
        'id' in customerName ? 'customer_id' : 'store_customer_id',
      );
    }
    if (productName) {
      const product = await this.resolveProduct(tx, tenant, productName);
      if (product.id !== subscription.product_id) {
        throw new ApiError(
          ErrorCode.SUBSCRIPTION_CONFLICT,
          `Subscription '${subscription.store_subscription_id}' is for product '${subscription.product_id}'; its product cannot change`,
          'id' in productName ? 'product_id' : 'storeId' in productName ? 'store_product_id' : 'store_variant_id',
        );
      }
    }
  }

  /**
   * Brings the entitlement to what the subscription's status calls for, through the lifecycle
   * (each step publishes its own entitlement.* event); returns the entitlement's id. A revoked
   * entitlement stays revoked whatever the store says.
   */
  private async keepEntitlementInStep(tx: Transaction, tenant: Tenant, subscription: SubscriptionEntity, customer: CustomerEntity): Promise<string | null> {
    // The customer's now: its test clock's frozen time when it is bound to one (DESIGN §14).
    const now = await this.time.nowFor(tx, tenant, customer.test_clock_id);
    const target = ENTITLEMENT_TARGET[subscription.status];
    const endsAt = subscription.cancel_at_period_end ? subscription.current_period_end : null;
    const ended = endsAt !== null && endsAt.getTime() <= now.getTime();
    const current = subscription.entitlement_id ? await this.transitions.lock(tx, tenant, subscription.entitlement_id) : null;
    if (!current) {
      if (target === 'expired') return subscription.entitlement_id;
      const { entitlement: granted } = await this.grantResolution.grant(tx, tenant, {
        customer: { id: subscription.customer_id },
        product: { id: subscription.product_id },
        source: 'subscription',
        expiresAt: ended ? null : endsAt,
      });
      if (target === 'active' && ended) await this.transitions.expire(tx, tenant, granted.id);
      else if (target === 'suspended') await this.transitions.suspend(tx, tenant, granted.id, PAUSED_REASON);
      return granted.id;
    }
    await this.step(tx, tenant, current.id, current.status, current.expiresAt, target === 'active' && ended ? 'expired' : target, endsAt);
    return current.id;
  }

  /** Runs the step subscriptionStep chose, through the lifecycle's transitions (each publishes its own event). */
  private async step(
    tx: Transaction,
    tenant: Tenant,
    entitlementId: string,
    status: EntitlementStatus,
    expiresAt: Date | null,
    target: EntitlementTarget,
    endsAt: Date | null,
  ): Promise<void> {
    const step = subscriptionStep(status, expiresAt, target, endsAt);
    if (step.operation === 'expire') await this.transitions.expire(tx, tenant, entitlementId);
    else if (step.operation === 'suspend') await this.transitions.suspend(tx, tenant, entitlementId, PAUSED_REASON);
    else if (step.operation === 'update') await this.transitions.update(tx, tenant, entitlementId, { expiresAt: step.expiresAt });
    else if (step.operation === 'reactivate') await this.transitions.reactivate(tx, tenant, entitlementId, { expiresAt: step.expiresAt });
  }
}

/** The response shape; `entitlementStatuses` holds the effective status of the subscription's entitlement. */
function toSubscriptionResponse(
  subscription: SubscriptionEntity,
  customer: Pick<CustomerEntity, 'store_customer_id' | 'test_clock_id'> | undefined,
  productName: string,
  entitlementStatuses: ReadonlyMap<string, string>,
  applied: boolean,
): SubscriptionResponseDto {
  return {
    id: subscription.id,
    store_subscription_id: subscription.store_subscription_id,
    customer_id: subscription.customer_id,
    store_customer_id: customer?.store_customer_id ?? '',
    test_clock: customer?.test_clock_id ?? null,
    product_id: subscription.product_id,
    product_name: productName,
    status: subscription.status,
    current_period_end: iso(subscription.current_period_end),
    cancel_at_period_end: subscription.cancel_at_period_end,
    store_updated_at: iso(subscription.store_updated_at),
    entitlement_id: subscription.entitlement_id,
    entitlement_status: subscription.entitlement_id ? (entitlementStatuses.get(subscription.entitlement_id) ?? null) : null,
    applied,
    created_at: subscription.created_at.toISOString(),
    updated_at: subscription.updated_at.toISOString(),
  };
}
