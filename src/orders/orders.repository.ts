import type { SqlCondition } from '../database/sql-condition';
import { searchTable, type SearchableTable, type SearchHit } from '../database/search-hit';
import { isValidId } from '../ids/id';
import { Injectable } from '@nestjs/common';
import { Brackets, In } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { Tenant } from '../database/tenant';
import { TenantTable } from '../database/tenant-table';
import type { Reader, Transaction } from '../database/transaction';
import { fetchPageWithTotal } from '../pagination/keyset';
import { PageRequest } from '../pagination/page';
import { OrderLineItemEntity } from './order-line-item.entity';
import { OrderEntity } from './order.entity';

export interface OrderFilters {
  customerId?: string;
  /** The customer's store id starts with… (the customer-records owner's condition). */
  customerCondition?: SqlCondition;
  /** An exact order id or store order id. */
  search?: string;
}

export type OrderChanges = Partial<Pick<OrderEntity, 'status' | 'placed_at' | 'metadata'>>;
export type NewLineItem = Pick<OrderLineItemEntity, 'store_line_item_id' | 'product_id' | 'quantity' | 'status' | 'skipped_reason' | 'entitlement_id' | 'position'>;

// A CTE, so the driver returns the row (a bare INSERT … RETURNING may come back as [rows, count]).
const INSERT_IF_NEW_SQL = `WITH inserted AS (
    INSERT INTO orders (id, merchant_id, mode, store_order_id, customer_id, status, placed_at, metadata)
    VALUES ($1, $2, $3, $4, $5, 'active', $6, $7::jsonb)
    ON CONFLICT (merchant_id, mode, store_order_id) DO NOTHING
    RETURNING *
  )
  SELECT * FROM inserted`;

/** SQL of orders and order_line_items. */
const ORDER_SEARCH: SearchableTable = { table: 'orders', storeIdColumn: 'store_order_id', labelSql: 'store_order_id' };

@Injectable()
export class OrdersRepository {
  private readonly orders = new TenantTable(OrderEntity, 'ord');
  private readonly lineItems = new TenantTable(OrderLineItemEntity, 'item');

  /**
   * Inserts the order unless the tenant has one with this store id (a concurrent post's insert
   * waits on the unique index until the first commits, then inserts nothing). The new order (locked,
   * as this transaction wrote it), or null when it was there already.
   */
  async insertIfNew(
    tx: Transaction,
    tenant: Tenant,
    order: Pick<OrderEntity, 'id' | 'store_order_id' | 'customer_id' | 'placed_at' | 'metadata'>,
  ): Promise<OrderEntity | null> {
    const rows: OrderEntity[] = await tx.manager.query(INSERT_IF_NEW_SQL, [
      order.id,
      tenant.merchantId,
      tenant.mode,
      order.store_order_id,
      order.customer_id,
      order.placed_at?.toISOString() ?? null,
      JSON.stringify(order.metadata),
    ]);
    // Raw columns are the entity's: the driver parses timestamps and jsonb alike.
    return rows.length === 1 ? tx.manager.create(OrderEntity, rows[0]) : null;
  }

  /** The order with this store id, locked until the transaction ends: posts and refunds of one order run one at a time. */
  lockByStoreId(tx: Transaction, tenant: Tenant, storeOrderId: string): Promise<OrderEntity | null> {
    return this.orders.select(tx.manager, tenant).andWhere('ord.store_order_id = :storeOrderId', { storeOrderId }).setLock('pessimistic_write').getOne();
  }

  lockById(tx: Transaction, tenant: Tenant, orderId: string): Promise<OrderEntity | null> {
    return this.orders.lockById(tx.manager, tenant, orderId);
  }

  findById(db: Reader, tenant: Tenant, orderId: string): Promise<OrderEntity | null> {
    return this.orders.findOne(db.manager, tenant, { id: orderId });
  }

  findByStoreId(db: Reader, tenant: Tenant, storeOrderId: string): Promise<OrderEntity | null> {
    return this.orders.findOne(db.manager, tenant, { store_order_id: storeOrderId });
  }

  /** Applies the changes (and updated_at) and returns the order as updated, in one statement. */
  async update(tx: Transaction, tenant: Tenant, orderId: string, changes: OrderChanges): Promise<OrderEntity> {
    const order = await this.orders.updateById(tx.manager, tenant, orderId, { ...changes, updated_at: () => 'now()' } as QueryDeepPartialEntity<OrderEntity>);
    if (!order) throw new Error(`Order ${orderId} vanished inside its own transaction`);
    return order;
  }

  /** Each order's line items, in position order. */
  async lineItemsOf(db: Reader, tenant: Tenant, orderIds: string[]): Promise<Map<string, OrderLineItemEntity[]>> {
    const result = new Map<string, OrderLineItemEntity[]>(orderIds.map((orderId) => [orderId, []]));
    if (orderIds.length === 0) return result;
    const items = await this.lineItems.find(db.manager, tenant, { order_id: In(orderIds) }, { order_id: 'ASC', position: 'ASC' });
    for (const item of items) result.get(item.order_id)?.push(item);
    return result;
  }

  /** Inserts the line items in order, in one statement; returns them as inserted. */
  insertLineItems(tx: Transaction, tenant: Tenant, orderId: string, items: NewLineItem[]): Promise<OrderLineItemEntity[]> {
    if (items.length === 0) return Promise.resolve([]);
    return this.lineItems.insertMany(tx.manager, tenant, items.map((item) => ({ ...item, order_id: orderId })));
  }

  async markRefunded(tx: Transaction, tenant: Tenant, orderId: string, storeLineItemIds: string[]): Promise<void> {
    if (storeLineItemIds.length === 0) return;
    await this.lineItems.update(tx.manager, tenant, { order_id: orderId, store_line_item_id: In(storeLineItemIds) }, { status: 'refunded' });
  }

  /** One keyset page (limit + 1 rows) of the tenant's orders matching the filters and the total, newest first. */
  list(db: Reader, tenant: Tenant, filters: OrderFilters, page: PageRequest): Promise<{ rows: OrderEntity[]; total: number }> {
    const base = () => {
      const query = this.orders.select(db.manager, tenant);
      if (filters.customerId !== undefined) query.andWhere('ord.customer_id = :customerId', { customerId: filters.customerId });
      if (filters.customerCondition) query.andWhere(filters.customerCondition.sql, filters.customerCondition.parameters);
      if (filters.search !== undefined) {
        query.andWhere(new Brackets((where) => where.where('ord.id = :search', { search: filters.search }).orWhere('ord.store_order_id = :search', { search: filters.search })));
      }
      return query;
    };
    return fetchPageWithTotal(base, 'ord', page);
  }

  /** GET /v1/search: the order with this id, or those whose store id starts with the term (by id or by the start of its store id). */
  search(db: Reader, tenant: Tenant, term: string, limit: number): Promise<SearchHit[]> {
    return searchTable(db, tenant, ORDER_SEARCH, term, isValidId('ord', term) ? term : null, limit);
  }
}
