import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { Tenant } from '../auth/tenant';
import { generateId } from '../ids/id';
import { EventEntity } from './event.entity';

@Injectable()
export class EventsRepository {
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
}
