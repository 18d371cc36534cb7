import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { isTransactionConflict, transactionConflictError } from '../errors/database-unavailable';
import { DOMAIN_EVENT, EVENTS_COMMITTED, PublishedEvent } from './domain-event';
import type { IdempotencyClaim, Operation } from './operation';
import { AUDIT_RECORD, AuditContext, auditObjectOf, AuditRecord } from './audit-trail';
import { StatementRefused, writeTogether } from './combined-statement';
import { CombinedWrite, DomainEvents, Reader, Transaction, TransactionWork } from './transaction';
import { Replica } from './replica';
import { TenantTransactionLimiter } from './tenant-transaction-limiter';

/** How many times a transaction runs before a deadlock or serialization failure becomes a 503. */
export const CONFLICT_ATTEMPTS = 4;

/** A random pause that grows with the attempt (10–30 ms, then 20–60 ms, …): racers fall out of step. */
function conflictPauseMilliseconds(attempt: number): number {
  return attempt * (10 + Math.random() * 20);
}

/**
 * The one place transactions open, and the one place a transaction that lost a race (deadlock,
 * serialization failure) runs again. A state change, its events and (for a request with an
 * Idempotency-Key) the stored response commit together or not at all. Domain modules publish
 * through the event emitter; the Webhooks module writes the outbox rows, so neither imports the
 * other.
 */
@Injectable()
export class UnitOfWork {
  /** Reads outside any transaction, on the primary: what a write just did is seen. */
  readonly pool: Reader;
  /**
   * Reads that may lag the primary by the replication delay (DESIGN §15): lists, the event log,
   * usage, the dashboard's overview. The replica of DATABASE_READ_URL, else the same as `pool`.
   * Never for the access check, downloads or any read a write decides on.
   */
  readonly replica: Reader;

  constructor(
    private readonly dataSource: DataSource,
    private readonly emitter: EventEmitter2,
    private readonly limiter: TenantTransactionLimiter,
    replica: Replica,
  ) {
    this.pool = { manager: dataSource.manager };
    this.replica = replica.readerOr(this.pool);
  }

  /** Background work (sweeps, deliveries): no request, no idempotency. */
  run<T>(work: TransactionWork<T>): Promise<T>;
  /**
   * A request's write. With an idempotency claim, the key is taken by the transaction's first
   * statement and the response stored by its last (with the outbox's rows), so a crash leaves
   * either both or neither.
   */
  run<T>(operation: Operation, work: TransactionWork<T>): Promise<T>;
  async run<T>(first: Operation | TransactionWork<T>, second?: TransactionWork<T>): Promise<T> {
    const operation = typeof first === 'function' ? null : first;
    const work = typeof first === 'function' ? first : second;
    if (!work) throw new Error('UnitOfWork.run needs the work to run');
    return this.transact(operation?.tenant.merchantId ?? null, operation?.idempotency ?? null, operation?.audit ?? null, work);
  }

  /**
   * A write of a face without an Operation (the dashboard's team and keys, sign-ins, the admin API,
   * the CLI): its audit row commits with it, as a request's does. `audit` may be a function of the
   * result, for a write that learns its merchant as it runs.
   */
  async runRecorded<T>(audit: AuditContext | ((result: T) => AuditContext), work: TransactionWork<T>): Promise<T> {
    return this.transact(null, null, audit, work);
  }

  /** The audit row alone, as its own transaction: what is recorded because it failed (a sign-in). */
  async recordAlone(audit: AuditContext): Promise<void> {
    await this.transact(null, null, audit, () => Promise.resolve(undefined));
  }

  private async transact<T>(
    merchantId: string | null,
    claim: IdempotencyClaim | null,
    audit: AuditContext | ((result: T) => AuditContext) | null,
    work: TransactionWork<T>,
  ): Promise<T> {
    let published = 0;
    const transaction = () =>
      this.dataSource.transaction(async (manager) => {
        published = 0;
        const pending: PublishedEvent[] = [];
        const publishMany: Transaction['publishMany'] = (type, tenant, objects) => {
          for (const object of objects) pending.push({ type, tenant, object });
          return Promise.resolve();
        };
        const tx: Transaction = { manager, publishMany, publish: (type, tenant, object) => publishMany(type, tenant, [object]) };
        await claim?.acquire(tx);
        const value = await work(tx);
        // The outbox's rows and the stored response go as one closing statement: one round trip before COMMIT.
        const closing = new CombinedWrite();
        if (pending.length > 0) {
          const results = await this.emitter.emitAsync(DOMAIN_EVENT, new DomainEvents(pending, closing));
          if (results.length === 0) throw new Error(`No outbox listener recorded ${pending[0].type}`);
          published = pending.length;
        }
        // The audit row goes with the change (DESIGN §11); some faces learn the merchant from the result (a key revoked by id).
        if (audit) await this.record(typeof audit === 'function' ? audit(value) : audit, value, closing);
        if (claim) closing.add(claim.completionPart(value));
        if (closing.parts.length > 0) await writeTogether(manager, closing.parts);
        return value;
      });
    // A request's transaction counts against its merchant's share of the pool; background work doesn't.
    const result = await this.limiter.run(merchantId, async () => {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await transaction();
        } catch (error) {
          // DESIGN §13: a deadlock or serialization failure rolled everything back; run it again
          // after a short random pause, a few times, then answer 503 with Retry-After (never 500).
          if (!isTransactionConflict(error)) throw error;
          if (attempt >= CONFLICT_ATTEMPTS) throw transactionConflictError(attempt);
          claim?.rolledBack();
          await sleep(conflictPauseMilliseconds(attempt));
        }
      }
    });
    if (published > 0) this.emitter.emit(EVENTS_COMMITTED);
    return result;
  }

  /**
   * The write's audit row as a part of its closing statement (the audit module renders it): the
   * row commits with the change or not at all. A missing listener is a wiring error, refused
   * before anything commits.
   */
  private async record(audit: AuditContext, result: unknown, combined: CombinedWrite): Promise<void> {
    const entry = {
      merchantId: audit.merchantId,
      mode: audit.mode,
      actor: audit.actor,
      action: audit.action,
      requestId: audit.requestId,
      clientAddress: audit.clientAddress,
      object: auditObjectOf(audit, result),
      status: audit.status ?? 'succeeded',
    };
    const results = await this.emitter.emitAsync(AUDIT_RECORD, new AuditRecord(entry, combined));
    if (results.length === 0) throw new Error(`No audit listener recorded ${audit.action}`);
  }

  /**
   * A request's work outside a transaction (a combined read, then a combined write) within its
   * merchant's share of the pool, as one transaction of its would be: a burst of one merchant's
   * downloads queues here, not on the connections everyone else's requests need.
   */
  runShared<T>(operation: Operation, work: () => Promise<T>): Promise<T> {
    return this.limiter.run(operation.tenant.merchantId, work);
  }

  /**
   * A request's writes as one statement, atomic by itself (no BEGIN/COMMIT round trips): the parts,
   * then the outbox's parts for the events and, for a request with an Idempotency-Key, the key taken
   * with `result` as its stored response. Throws StatementRefused when a part refused (the key's
   * refusal included: another request has it); nothing stays. Run it within `runShared`.
   */
  async runCombined(operation: Operation, combined: CombinedWrite, result?: unknown): Promise<void> {
    const claim = operation.idempotency;
    if (claim && result === undefined) throw new Error('A combined write with an idempotency claim needs the result to store');
    if (combined.events.length > 0) {
      const results = await this.emitter.emitAsync(DOMAIN_EVENT, new DomainEvents(combined.events, combined));
      if (results.length === 0) throw new Error(`No outbox listener recorded ${combined.events[0].type}`);
    }
    if (operation.audit) await this.record(operation.audit, result, combined);
    const parts = claim ? [...combined.parts, claim.takenWithResponsePart(result)] : combined.parts;
    try {
      await writeTogether(this.dataSource.manager, parts);
    } catch (error) {
      claim?.rolledBack();
      // A deadlock or serialization failure is a refusal too: the caller's locked path decides.
      if (isTransactionConflict(error)) throw new StatementRefused('conflict');
      throw error;
    }
    if (combined.events.length > 0) this.emitter.emit(EVENTS_COMMITTED);
  }
}
