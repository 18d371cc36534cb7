import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Tenant } from '../auth/tenant';
import { generateId } from '../ids/id';
import { fetchPageWithTotal } from '../pagination/keyset';
import { PageRequest } from '../pagination/page';
import { EventEntity } from './event.entity';

export interface EventFilters {
  type?: string;
  createdAfter?: Date;
  createdBefore?: Date;
}

@Injectable()
export class EventsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Inserts with the caller's transaction manager: the outbox row commits with the change. */
  async insert(manager: EntityManager, tenant: Tenant, type: string, object: Record<string, unknown>): Promise<EventEntity> {
    const event = manager.create(EventEntity, {
      id: generateId('evt'),
      merchant_id: tenant.merchantId,
      mode: tenant.mode,
      type,
      data: { object },
    });
    return manager.save(EventEntity, event);
  }

  findById(tenant: Tenant, eventId: string): Promise<EventEntity | null> {
    return this.dataSource.manager.findOne(EventEntity, {
      where: { id: eventId, merchant_id: tenant.merchantId, mode: tenant.mode },
    });
  }

  /** One keyset page (limit + 1 rows) and the total of matches, newest first. */
  async list(tenant: Tenant, filters: EventFilters, page: PageRequest): Promise<{ rows: EventEntity[]; total: number }> {
    const base = () => {
      const query = this.dataSource.manager
        .createQueryBuilder(EventEntity, 'event')
        .where('event.merchant_id = :merchantId AND event.mode = :mode', { merchantId: tenant.merchantId, mode: tenant.mode });
      if (filters.type) query.andWhere('event.type = :type', { type: filters.type });
      if (filters.createdAfter) query.andWhere('event.created_at > :createdAfter', { createdAfter: filters.createdAfter });
      if (filters.createdBefore) query.andWhere('event.created_at < :createdBefore', { createdBefore: filters.createdBefore });
      return query;
    };
    return fetchPageWithTotal(base, 'event', page);
  }
}
