import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { DataSource, EntityManager } from 'typeorm';
import type { Tenant } from '../auth/tenant';
import { DOMAIN_EVENT, DomainEvents, EVENTS_COMMITTED, EventType, PublishedEvent } from '../events/domain-event';
import type { Operation } from './operation';
import { TenantTransactionLimiter } from './tenant-transaction-limiter';

/**
 * Where a read runs: an open transaction, or the pool outside any (`UnitOfWork.pool`). A method
 * that only reads, inside or outside a transaction, takes one as `db`, its first parameter.
 */
export interface Reader {
  readonly manager: EntityManager;
}

/**
 * One open database transaction, passed as `tx`: the first, required parameter of every service
 * and repository method that writes or locks. Only UnitOfWork opens one. (On the embedded
 * database's single connection, a statement sent to the pool while a transaction is open would
 * wait for it forever, so a forgotten `tx` shows at once there.)
 */
export interface Transaction extends Reader {
  /**
   * Records the event in this transaction (the outbox); it commits or rolls back with the change.
   * Events are written together when the work is done, just before the commit.
   */
  publish(type: EventType, tenant: Tenant, object: Record<string, unknown>): Promise<void>;
  /** One event per object, recorded together (bulk writes); nothing is recorded for none. */
  publishMany(type: EventType, tenant: Tenant, objects: ReadonlyArray<Record<string, unknown>>): Promise<void>;
}

export type TransactionWork<T> = (tx: Transaction) => Promise<T>;

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
