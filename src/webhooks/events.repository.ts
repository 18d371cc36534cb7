import { searchTable, type SearchableTable, type SearchHit } from '../database/search-hit';
import { isValidId } from '../ids/id';
import { Injectable } from '@nestjs/common';
import type { Tenant } from '../database/tenant';
import { TenantTable } from '../database/tenant-table';
import type { Reader } from '../database/transaction';
import { fetchPageWithTotal } from '../pagination/keyset';
import { PageRequest } from '../pagination/page';
import { EventEntity } from './event.entity';

export interface EventFilters {
  type?: string;
  objectId?: string;
  createdAfter?: Date;
  createdBefore?: Date;
}

const EVENT_SEARCH: SearchableTable = { table: 'events', storeIdColumn: null, labelSql: 'type' };

@Injectable()
export class EventsRepository {
  private readonly table = new TenantTable(EventEntity, 'event');

  findById(db: Reader, tenant: Tenant, eventId: string): Promise<EventEntity | null> {
    return this.table.findOne(db.manager, tenant, { id: eventId });
  }

  /** One keyset page (limit + 1 rows) and the total of matches, newest first. */
  async list(db: Reader, tenant: Tenant, filters: EventFilters, page: PageRequest): Promise<{ rows: EventEntity[]; total: number }> {
    const base = () => {
      const query = this.table.select(db.manager, tenant);
      if (filters.type) query.andWhere('event.type = :type', { type: filters.type });
      if (filters.objectId !== undefined) query.andWhere('event.object_id = :objectId', { objectId: filters.objectId });
      if (filters.createdAfter) query.andWhere('event.created_at > :createdAfter', { createdAfter: filters.createdAfter });
      if (filters.createdBefore) query.andWhere('event.created_at < :createdBefore', { createdBefore: filters.createdBefore });
      return query;
    };
    return fetchPageWithTotal(base, 'event', page);
  }

  /** GET /v1/search: the event with this id, or those whose store id starts with the term (by id only (it has no store id)). */
  search(db: Reader, tenant: Tenant, term: string, limit: number): Promise<SearchHit[]> {
    return searchTable(db, tenant, EVENT_SEARCH, term, isValidId('evt', term) ? term : null, limit);
  }
}
