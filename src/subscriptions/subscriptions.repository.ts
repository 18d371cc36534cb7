import type { SqlCondition } from '../database/sql-condition';
import { searchTable, type SearchableTable, type SearchHit } from '../database/search-hit';
import { isValidId } from '../ids/id';
import { Injectable } from '@nestjs/common';
import { Brackets } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { assertTenant, TenantTable, WithoutTenant } from '../database/tenant-table';
import type { Tenant } from '../database/tenant';
import type { Reader, Transaction } from '../database/transaction';
import { fetchPageWithTotal } from '../pagination/keyset';
import { PageRequest } from '../pagination/page';
import { SubscriptionEntity, SubscriptionStatus } from './subscription.entity';

export interface SubscriptionFilters {
  customerId?: string;
  /** The customer's store id starts with… (the customer-records owner's condition). */
  customerCondition?: SqlCondition;
  status?: SubscriptionStatus;
  /** An exact subscription id or store subscription id. */
  search?: string;
}

export type NewSubscription = WithoutTenant<Omit<SubscriptionEntity, 'merchant' | 'customer' | 'product' | 'created_at' | 'updated_at'>>;

/** What a put may change on a stored subscription. */
export type SubscriptionState = Pick<
  SubscriptionEntity,
  'status' | 'current_period_end' | 'cancel_at_period_end' | 'store_updated_at' | 'entitlement_id'
>;

const SUBSCRIPTION_SEARCH: SearchableTable = { table: 'subscriptions', storeIdColumn: 'store_subscription_id', labelSql: 'store_subscription_id' };

@Injectable()
export class SubscriptionsRepository {
  private readonly table = new TenantTable(SubscriptionEntity, 'subscription');

  findById(db: Reader, tenant: Tenant, subscriptionId: string): Promise<SubscriptionEntity | null> {
    return this.table.findOne(db.manager, tenant, { id: subscriptionId });
  }

  findByStoreId(db: Reader, tenant: Tenant, storeSubscriptionId: string): Promise<SubscriptionEntity | null> {
    return this.table.findOne(db.manager, tenant, { store_subscription_id: storeSubscriptionId });
  }

  /** The subscription, locked until the transaction ends: puts of one subscription run one after the other. */
  lockByStoreId(tx: Transaction, tenant: Tenant, storeSubscriptionId: string): Promise<SubscriptionEntity | null> {
    return this.table.findOne(tx.manager, tenant, { store_subscription_id: storeSubscriptionId }, { lock: true });
  }

  /**
   * Inserts the subscription unless a concurrent first put inserted it (then waits for that one to
   * commit and returns false; the caller locks and updates the row it made).
   */
  async insertIfAbsent(tx: Transaction, tenant: Tenant, subscription: NewSubscription): Promise<boolean> {
    assertTenant(tenant);
    const result = await tx.manager
      .createQueryBuilder()
      .insert()
      .into(SubscriptionEntity)
      .values({ ...subscription, merchant_id: tenant.merchantId, mode: tenant.mode } as QueryDeepPartialEntity<SubscriptionEntity>)
      .orIgnore()
      .returning(['id'])
      .execute();
    return (result.raw as unknown[]).length > 0;
  }

  async saveState(tx: Transaction, tenant: Tenant, subscriptionId: string, state: SubscriptionState): Promise<SubscriptionEntity> {
    await this.table.update(tx.manager, tenant, { id: subscriptionId }, state as QueryDeepPartialEntity<SubscriptionEntity>);
    const saved = await this.findById(tx, tenant, subscriptionId);
    if (!saved) throw new Error(`Subscription ${subscriptionId} vanished inside its own transaction`);
    return saved;
  }

  /** One keyset page (limit + 1 rows) of the tenant's subscriptions matching the filters, newest first, and the total. */
  list(db: Reader, tenant: Tenant, filters: SubscriptionFilters, page: PageRequest): Promise<{ rows: SubscriptionEntity[]; total: number }> {
    const base = () => {
      const query = this.table.select(db.manager, tenant);
      if (filters.customerId !== undefined) query.andWhere('subscription.customer_id = :customerId', { customerId: filters.customerId });
      if (filters.customerCondition) query.andWhere(filters.customerCondition.sql, filters.customerCondition.parameters);
      if (filters.status !== undefined) query.andWhere('subscription.status = :status', { status: filters.status });
      if (filters.search !== undefined) {
        query.andWhere(
          new Brackets((where) =>
            where.where('subscription.id = :search', { search: filters.search }).orWhere('subscription.store_subscription_id = :search', { search: filters.search }),
          ),
        );
      }
      return query;
    };
    return fetchPageWithTotal(base, 'subscription', page);
  }

  /** GET /v1/search: the subscription with this id, or those whose store id starts with the term (by id or by the start of its store id). */
  search(db: Reader, tenant: Tenant, term: string, limit: number): Promise<SearchHit[]> {
    return searchTable(db, tenant, SUBSCRIPTION_SEARCH, term, isValidId('sub', term) ? term : null, limit);
  }
}
