import { Injectable } from '@nestjs/common';
import type { CallerScopes } from '../auth/caller-scopes.decorator';
import type { Scope } from '../auth/scopes';
import { CustomerRecordsService } from '../customer-records/customer-records.service';
import type { SearchHit } from '../database/search-hit';
import type { Tenant } from '../database/tenant';
import type { Reader } from '../database/transaction';
import { UnitOfWork } from '../database/unit-of-work';
import { EntitlementsService } from '../entitlements/entitlements.service';
import { FileRecordsService } from '../files/file-records.service';
import { OrdersService } from '../orders/orders.service';
import { ProductsService } from '../products/products.service';
import { SubscriptionsService } from '../subscriptions/subscriptions.service';
import { EventsService } from '../webhooks/events.service';
import type { SearchObject, SearchResultDto } from './dto/search-result.dto';

/** At most this many records of each kind: a search names a record, it is not a list to page through. */
export const SEARCH_LIMIT_PER_OBJECT = 5;

interface Searched {
  object: SearchObject;
  /** The read scope that shows this kind elsewhere: a caller without it doesn't find it here either. */
  scope: Scope;
  search: (db: Reader, tenant: Tenant, term: string, limit: number) => Promise<SearchHit[]>;
}

/**
 * GET /v1/search: every kind searched by its owner (one table each, one owner each), on the
 * replica like the lists. Each kind is one or two index ranges (an id lookup and a store id
 * prefix, src/database/search-hit.ts), so a search costs the same at a million entitlements.
 */
@Injectable()
export class SearchService {
  private readonly searched: readonly Searched[];

  constructor(
    customers: CustomerRecordsService,
    entitlements: EntitlementsService,
    products: ProductsService,
    orders: OrdersService,
    subscriptions: SubscriptionsService,
    files: FileRecordsService,
    events: EventsService,
    private readonly unitOfWork: UnitOfWork,
  ) {
    this.searched = [
      { object: 'customer', scope: 'customers:read', search: (db, tenant, term, limit) => customers.search(db, tenant, term, limit) },
      { object: 'entitlement', scope: 'entitlements:read', search: (db, tenant, term, limit) => entitlements.search(db, tenant, term, limit) },
      { object: 'product', scope: 'products:read', search: (db, tenant, term, limit) => products.search(db, tenant, term, limit) },
      { object: 'order', scope: 'entitlements:read', search: (db, tenant, term, limit) => orders.search(db, tenant, term, limit) },
      { object: 'subscription', scope: 'entitlements:read', search: (db, tenant, term, limit) => subscriptions.search(db, tenant, term, limit) },
      { object: 'file', scope: 'files:read', search: (db, tenant, term, limit) => files.search(db, tenant, term, limit) },
      { object: 'event', scope: 'events:read', search: (db, tenant, term, limit) => events.search(db, tenant, term, limit) },
    ];
  }

  /** Exact id matches first, then store id prefixes in the order of the kinds above. */
  async search(tenant: Tenant, term: string, holds: CallerScopes): Promise<SearchResultDto[]> {
    const db = this.unitOfWork.replica;
    const kinds = this.searched.filter((kind) => holds(kind.scope));
    const found = await Promise.all(kinds.map(async (kind) => (await kind.search(db, tenant, term, SEARCH_LIMIT_PER_OBJECT)).map((hit) => toSearchResult(kind.object, hit))));
    const results = found.flat();
    return [...results.filter((result) => result.id === term), ...results.filter((result) => result.id !== term)];
  }
}

function toSearchResult(object: SearchObject, hit: SearchHit): SearchResultDto {
  return { object, id: hit.id, label: hit.label, store_id: hit.storeId, created_at: hit.createdAt.toISOString() };
}
