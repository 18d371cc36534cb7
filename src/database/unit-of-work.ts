import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { DataSource, EntityManager } from 'typeorm';
import type { Tenant } from '../auth/tenant';
import { DOMAIN_EVENT, DomainEvent, EVENTS_COMMITTED, EventType } from '../events/domain-event';

export interface Transaction {
  manager: EntityManager;
  /** Records the event in this transaction (the outbox); it commits or rolls back with the change. */
  publish(type: EventType, tenant: Tenant, object: Record<string, unknown>): Promise<void>;
}

/**
 * Runs a state change and its events in one database transaction. Domain modules publish
 * through the event emitter; the Webhooks module writes the outbox rows, so neither imports
 * the other.
 */
@Injectable()
export class UnitOfWork {
  constructor(
    private readonly dataSource: DataSource,
    private readonly emitter: EventEmitter2,
  ) {}

  async run<T>(work: (transaction: Transaction) => Promise<T>): Promise<T> {
    let published = 0;
    const result = await this.dataSource.transaction(async (manager) => {
      const transaction: Transaction = {
        manager,
        publish: async (type, tenant, object) => {
          const results = await this.emitter.emitAsync(DOMAIN_EVENT, new DomainEvent(type, tenant, object, manager));
          if (results.length === 0) throw new Error(`No outbox listener recorded ${type}`);
          published += 1;
        },
      };
      return work(transaction);
    });
    if (published > 0) this.emitter.emit(EVENTS_COMMITTED);
    return result;
  }
}
