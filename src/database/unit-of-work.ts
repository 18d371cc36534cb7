import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { DataSource } from 'typeorm';
import { DOMAIN_EVENT, EVENTS_COMMITTED, PublishedEvent } from './domain-event';
import type { Operation } from './operation';
import { DomainEvents, Reader, Transaction, TransactionWork } from './transaction';
import { TenantTransactionLimiter } from './tenant-transaction-limiter';

/**
 * The one place transactions open. A state change, its events and (for a request with an
 * Idempotency-Key) the stored response commit together or not at all. Domain modules publish
 * through the event emitter; the Webhooks module writes the outbox rows, so neither imports the
 * other.
 */
@Injectable()
export class UnitOfWork {
  /** Reads outside any transaction. */
  readonly pool: Reader;

  constructor(
    private readonly dataSource: DataSource,
    private readonly emitter: EventEmitter2,
    private readonly limiter: TenantTransactionLimiter,
  ) {
    this.pool = { manager: dataSource.manager };
  }

  /** Background work (sweeps, deliveries): no request, no idempotency. */
  run<T>(work: TransactionWork<T>): Promise<T>;
  /**
   * A request's write. With an idempotency claim, the key is taken by the transaction's first
   * statement and the response stored by its last, so a crash leaves either both or neither.
   */
  run<T>(operation: Operation, work: TransactionWork<T>): Promise<T>;
  async run<T>(first: Operation | TransactionWork<T>, second?: TransactionWork<T>): Promise<T> {
    const operation = typeof first === 'function' ? null : first;
    const work = typeof first === 'function' ? first : second;
    if (!work) throw new Error('UnitOfWork.run needs the work to run');
    const claim = operation?.idempotency ?? null;
    let published = 0;
    // A request's transaction counts against its merchant's share of the pool; background work doesn't.
    const result = await this.limiter.run(operation?.tenant.merchantId ?? null, () => this.dataSource.transaction(async (manager) => {
      const pending: PublishedEvent[] = [];
      const publishMany: Transaction['publishMany'] = (type, tenant, objects) => {
        for (const object of objects) pending.push({ type, tenant, object });
        return Promise.resolve();
      };
      const tx: Transaction = { manager, publishMany, publish: (type, tenant, object) => publishMany(type, tenant, [object]) };
      await claim?.acquire(tx);
      const value = await work(tx);
      if (pending.length > 0) {
        const results = await this.emitter.emitAsync(DOMAIN_EVENT, new DomainEvents(pending, tx));
        if (results.length === 0) throw new Error(`No outbox listener recorded ${pending[0].type}`);
        published = pending.length;
      }
      await claim?.complete(tx, value);
      return value;
    }));
    if (published > 0) this.emitter.emit(EVENTS_COMMITTED);
    return result;
  }
}
