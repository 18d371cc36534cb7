import type { SearchHit } from '../database/search-hit';
import { Injectable } from '@nestjs/common';
import type { Tenant } from '../database/tenant';
import { CustomerRecordsService } from '../customer-records/customer-records.service';
import type { Operation } from '../database/operation';
import { UnitOfWork } from '../database/unit-of-work';
import type { Reader, Transaction } from '../database/transaction';
import { PageResult } from '../envelope/page-result';
import { StatusResult } from '../envelope/status-result';
import { EntitlementGrantResolutionService, ResolvedGrant } from '../entitlements/entitlement-grant-resolution.service';
import { canTransition } from '../entitlements/entitlement-state-machine';
import { EntitlementTransitionsService } from '../entitlements/entitlement-transitions.service';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { generateId, isValidId } from '../ids/id';
import { toPageRequest, toPageResult } from '../pagination/page';
import type { ProductEntity } from '../products/product.entity';
import { ProductReference, ProductsService } from '../products/products.service';
import { CreateOrderDto, OrderLineItemRequestDto, RefundOrderDto } from './dto/order-request.dto';
import { ListOrdersQueryDto } from './dto/order-query.dto';
import { OrderResponseDto } from './dto/order-response.dto';
import { OrderLineItemEntity } from './order-line-item.entity';
import { OrderEntity } from './order.entity';
import { lineItemOutcome, orderedUsageLimit, orderStatusOf } from './order-status';
import { toOrderResponse } from './order.mapper';
import { OrderChanges, OrdersRepository } from './orders.repository';
import { exactlyOne } from '../validation/exactly-one';
import { sameJsonContent } from '../database/jsonb';
import { INT4_MAX } from '../database/columns';

/** The largest usage_limit its int4 column holds. */

/**
 * Store orders and refunds (DESIGN §10). A post is one transaction: the order row is inserted if
 * new and then locked, so concurrent posts of one order run one after the other and each grants
 * only the line items the previous ones left; the (order, line item) primary key backs that up.
 * Grants go through EntitlementGrantResolutionService (bundle children and grant rules included),
 * refunds through EntitlementTransitionsService.
 */
@Injectable()
export class OrdersService {
  constructor(
    private readonly orders: OrdersRepository,
    private readonly customers: CustomerRecordsService,
    private readonly products: ProductsService,
    private readonly grantResolution: EntitlementGrantResolutionService,
    private readonly transitions: EntitlementTransitionsService,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** GET /v1/search's orders (search/search.service.ts), read where the caller says (the replica). */
  search(db: Reader, tenant: Tenant, term: string, limit: number): Promise<SearchHit[]> {
    return this.orders.search(db, tenant, term, limit);
  }

  /** Upsert by store_order_id: 201 when the order is new, 200 after. All or nothing. */
  post(operation: Operation, input: CreateOrderDto): Promise<StatusResult<OrderResponseDto>> {
    const { tenant } = operation;
    checkBody(input);
    return this.unitOfWork.run(operation, async (tx) => {
      const customer = await this.customers.resolveForWrite(
        tx,
        tenant,
        input.customer_id !== undefined ? { id: input.customer_id } : { storeId: input.store_customer_id as string },
        input.test_clock,
      );
      const placedAt = input.placed_at === undefined ? undefined : new Date(input.placed_at);
      const created = await this.orders.insertIfNew(tx, tenant, {
        id: generateId('ord'),
        store_order_id: input.store_order_id,
        customer_id: customer.id,
        placed_at: placedAt ?? null,
        metadata: input.metadata ?? {},
      });
      // A new order is this transaction's own row; a known one is locked and read with its line items.
      const isNew = created !== null;
      let order = created ?? ((await this.orders.lockByStoreId(tx, tenant, input.store_order_id)) as OrderEntity);
      if (order.customer_id !== customer.id) {
        throw new ApiError(
          ErrorCode.ORDER_CUSTOMER_MISMATCH,
          `Order '${input.store_order_id}' belongs to another customer ('${order.customer_id}'); an order's customer cannot change`,
          input.customer_id !== undefined ? 'customer_id' : 'store_customer_id',
        );
      }
      const known = isNew ? [] : ((await this.orders.lineItemsOf(tx, tenant, [order.id])).get(order.id) ?? []);
      const knownIds = new Set(known.map((item) => item.store_line_item_id));
      const fresh = input.line_items.map((item, index) => ({ item, index })).filter(({ item }) => !knownIds.has(item.store_line_item_id));
      // Every product first: a refused line item refuses the post before anything is granted.
      const matched = await this.matchProducts(tx, tenant, fresh);
      // The granted line items in one grantMany (bundles, rules and events as any grant), then
      // every new line item in one insert.
      const grants: ResolvedGrant[] = [];
      const outcomes = matched.map(({ item, index, product }) => {
        const quantity = item.quantity ?? 1;
        const outcome = lineItemOutcome(product);
        if (outcome.status === 'granted' && product) {
          const usageLimit = orderedUsageLimit(product, quantity);
          if (usageLimit !== undefined && usageLimit > INT4_MAX) {
            throw new ApiError(ErrorCode.INVALID_PARAMETER, `Invalid 'line_items[${index}].quantity': usage_limit × quantity may not pass ${INT4_MAX}`, `line_items[${index}].quantity`);
          }
          grants.push({
            customer: { id: customer.id, storeCustomerId: customer.store_customer_id, testClockId: customer.test_clock_id },
            product,
            source: 'order',
            usageLimit,
            storeOrderId: order.store_order_id,
            storeLineItemId: item.store_line_item_id,
          });
        }
        return { item, product, quantity, outcome };
      });
      const granted = new Map((await this.grantResolution.grantMany(tx, tenant, grants)).map((entitlement) => [entitlement.store_line_item_id, entitlement.id]));
      const inserted = await this.orders.insertLineItems(
        tx,
        tenant,
        order.id,
        outcomes.map(({ item, product, quantity, outcome }, offset) => ({
          store_line_item_id: item.store_line_item_id,
          product_id: product?.id ?? null,
          quantity,
          status: outcome.status,
          skipped_reason: outcome.skippedReason,
          entitlement_id: granted.get(item.store_line_item_id) ?? null,
          position: known.length + offset,
        })),
      );
      // The known line items are in position order and the new ones follow them.
      const lineItems = [...known, ...inserted];
      const changes: OrderChanges = {};
      if (!isNew && placedAt !== undefined && placedAt.getTime() !== order.placed_at?.getTime()) changes.placed_at = placedAt;
      if (!isNew && input.metadata !== undefined && !sameJsonContent(input.metadata, order.metadata)) changes.metadata = input.metadata;
      const status = orderStatusOf(lineItems);
      if (status !== order.status) changes.status = status;
      if (Object.keys(changes).length > 0 || fresh.length > 0) order = await this.orders.update(tx, tenant, order.id, changes);
      const response = toOrderResponse(order, lineItems, customer, await this.productNamesOf(tx, tenant, lineItems));
      if (isNew) await tx.publish('order.created', tenant, { ...response });
      else if (Object.keys(changes).length > 0 || fresh.length > 0) await tx.publish('order.updated', tenant, { ...response });
      return new StatusResult(isNew ? 201 : 200, response);
    });
  }

  /**
   * Revokes the entitlements of these line items (all when none are named) and their bundle
   * children; a refunded line item is left alone, so a repeat is a no-op. An entitlement that is
   * already revoked or expired stays as it is; its line item is refunded all the same.
   */
  refund(operation: Operation, orderId: string, input: RefundOrderDto): Promise<OrderResponseDto> {
    const { tenant } = operation;
    return this.unitOfWork.run(operation, async (tx) => {
      let order = isValidId('ord', orderId) ? await this.orders.lockById(tx, tenant, orderId) : null;
      if (!order) throw notFound(`id '${orderId}'`);
      const lineItems = (await this.orders.lineItemsOf(tx, tenant, [order.id])).get(order.id) ?? [];
      const named = input.store_line_item_ids ?? lineItems.map((item) => item.store_line_item_id);
      const unknown = named.filter((storeLineItemId) => !lineItems.some((item) => item.store_line_item_id === storeLineItemId));
      if (unknown.length > 0) {
        throw new ApiError(
          ErrorCode.INVALID_PARAMETER,
          `Invalid 'store_line_item_ids': order '${order.id}' has no line item ${unknown.map((id) => `'${id}'`).join(', ')}`,
          'store_line_item_ids',
        );
      }
      const refunded = lineItems.filter((item) => named.includes(item.store_line_item_id) && item.status === 'granted');
      for (const item of refunded) {
        const entitlement = item.entitlement_id ? await this.transitions.lock(tx, tenant, item.entitlement_id) : null;
        if (entitlement && canTransition('revoke', entitlement.status)) await this.transitions.revoke(tx, tenant, entitlement.id, input.reason ?? 'refunded');
      }
      if (refunded.length === 0) return this.respond(tx, tenant, order, lineItems);
      await this.orders.markRefunded(tx, tenant, order.id, refunded.map((item) => item.store_line_item_id));
      const after = (await this.orders.lineItemsOf(tx, tenant, [order.id])).get(order.id) ?? [];
      order = await this.orders.update(tx, tenant, order.id, { status: orderStatusOf(after) });
      const response = await this.respond(tx, tenant, order, after);
      await tx.publish('order.refunded', tenant, { ...response });
      return response;
    });
  }

  async get(tenant: Tenant, orderId: string): Promise<OrderResponseDto> {
    const db = this.unitOfWork.pool;
    const order = isValidId('ord', orderId) ? await this.orders.findById(db, tenant, orderId) : null;
    if (!order) throw notFound(`id '${orderId}'`);
    return this.respond(db, tenant, order);
  }

  async getByStoreId(tenant: Tenant, storeOrderId: string): Promise<OrderResponseDto> {
    const db = this.unitOfWork.pool;
    const order = await this.orders.findByStoreId(db, tenant, storeOrderId);
    if (!order) throw notFound(`store_order_id '${storeOrderId}'`);
    return this.respond(db, tenant, order);
  }

  /**
   * The tenant's orders, newest first, optionally a customer's (by id, or by the start of the store
   * customer id: both must hold when both are given; an unknown customer has none: not a 404, it's
   * a filter) and searched by exact id or store order id.
   */
  async list(tenant: Tenant, query: ListOrdersQueryDto): Promise<PageResult<OrderResponseDto>> {
    const page = toPageRequest(query);
    const db = this.unitOfWork.replica;
    const present = (value: string | undefined): value is string => value !== undefined && value !== '';
    const customerId = present(query.customer_id) ? query.customer_id : undefined;
    if (customerId !== undefined && !isValidId('cus', customerId)) return new PageResult([], { total: 0, limit: page.limit, has_more: false, next_cursor: null });
    const customerCondition = present(query.store_customer_id) ? this.customers.storeIdPrefixCondition(tenant, 'ord.customer_id', query.store_customer_id) : undefined;
    const { rows, total } = await this.orders.list(db, tenant, { customerId, customerCondition, search: query.search }, page);
    const lineItems = await this.orders.lineItemsOf(db, tenant, rows.map((row) => row.id));
    const customers = await this.customers.byIds(db, tenant, rows.map((row) => row.customer_id));
    const productNames = await this.productNamesOf(db, tenant, [...lineItems.values()].flat());
    return toPageResult(
      rows,
      page,
      (row) => row.created_at,
      (row) => toOrderResponse(row, lineItems.get(row.id) ?? [], customers.get(row.customer_id), productNames),
      total,
    );
  }

  /**
   * Each line item's product: by our id (must exist) or by store product id, all in one read; by
   * store variant id one at a time (rarer). null: unmatched.
   */
  private async matchProducts<Line extends { item: OrderLineItemRequestDto; index: number }>(
    tx: Transaction,
    tenant: Tenant,
    lines: Line[],
  ): Promise<Array<Line & { product: ProductEntity | null }>> {
    const references = lines.map(({ item }): ProductReference | null =>
      item.product_id !== undefined ? { id: item.product_id } : item.store_product_id !== undefined ? { storeId: item.store_product_id } : null,
    );
    const found = await this.products.findManyForGrant(tx, tenant, references);
    const matched: Array<Line & { product: ProductEntity | null }> = [];
    for (const [position, line] of lines.entries()) {
      const { item, index } = line;
      if (item.product_id !== undefined && !found[position]) {
        throw new ApiError(ErrorCode.PRODUCT_NOT_FOUND, `No product with id '${item.product_id}'`, `line_items[${index}].product_id`);
      }
      const product = references[position] ? found[position] : await this.products.findByStoreVariantId(tx, tenant, item.store_variant_id as string);
      matched.push({ ...line, product });
    }
    return matched;
  }

  private async respond(db: Reader, tenant: Tenant, order: OrderEntity, lineItems?: OrderLineItemEntity[]): Promise<OrderResponseDto> {
    const items = lineItems ?? (await this.orders.lineItemsOf(db, tenant, [order.id])).get(order.id) ?? [];
    const customers = await this.customers.byIds(db, tenant, [order.customer_id]);
    return toOrderResponse(order, items, customers.get(order.customer_id), await this.productNamesOf(db, tenant, items));
  }

  /** The names of these line items' products, in one read. */
  private productNamesOf(db: Reader, tenant: Tenant, lineItems: OrderLineItemEntity[]): Promise<Map<string, string>> {
    return this.products.namesOf(db, tenant, lineItems.flatMap((item) => (item.product_id ? [item.product_id] : [])));
  }
}

/** Exactly one customer reference and, per line item, exactly one product reference; line item ids unique. */
function checkBody(input: CreateOrderDto): void {
  exactlyOne({ customer_id: input.customer_id, store_customer_id: input.store_customer_id });
  const seen = new Set<string>();
  for (const [index, item] of input.line_items.entries()) {
    exactlyOne({ product_id: item.product_id, store_product_id: item.store_product_id, store_variant_id: item.store_variant_id }, `line_items[${index}].`);
    if (seen.has(item.store_line_item_id)) {
      throw new ApiError(ErrorCode.INVALID_PARAMETER, `Line item ${index}: store_line_item_id '${item.store_line_item_id}' appears twice`, `line_items[${index}].store_line_item_id`);
    }
    seen.add(item.store_line_item_id);
  }
}

function notFound(named: string): ApiError {
  return new ApiError(ErrorCode.ORDER_NOT_FOUND, `No order with ${named}`);
}
