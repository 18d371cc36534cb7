import type { EntityManager } from 'typeorm';
import type { WritePart } from './combined-statement';
import type { EventType, PublishedEvent } from './domain-event';
import type { Tenant } from './tenant';

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
 * Where a write's events go: a transaction's outbox or a combined write's. A rule that publishes
 * (a grant's entitlement.created, say) takes one, so both paths publish through the same code.
 */
export interface EventSink {
  publishMany(type: EventType, tenant: Tenant, objects: ReadonlyArray<Record<string, unknown>>): Promise<void> | void;
}

/**
 * Emitted (awaited) once per write, just before it commits, with every event it published in
 * publishing order. Listeners add their parts to `combined`, the write's closing statement (a
 * transaction's, sent before COMMIT, or a combined write's only one), so change and events commit
 * together and the outbox costs no round trip of its own.
 */
export class DomainEvents {
  constructor(
    readonly events: ReadonlyArray<PublishedEvent>,
    readonly combined: CombinedWrite,
  ) {}
}

/**
 * A request's writes as parts of one statement (`UnitOfWork.runCombined`), with the events they
 * publish: the outbox adds its own parts, so change and events still commit together.
 */
export class CombinedWrite {
  readonly parts: WritePart[] = [];
  readonly events: PublishedEvent[] = [];

  add(part: WritePart): void {
    this.parts.push(part);
  }

  publish(type: EventType, tenant: Tenant, object: Record<string, unknown>): void {
    this.events.push({ type, tenant, object });
  }

  publishMany(type: EventType, tenant: Tenant, objects: ReadonlyArray<Record<string, unknown>>): void {
    for (const object of objects) this.publish(type, tenant, object);
  }
}
