import { Injectable } from '@nestjs/common';
import { dropOldestMonthlyPartition } from '../database/monthly-partitions';
import type { Transaction } from '../database/transaction';
import { PENDING_DELIVERY, SETTLED_DELIVERY } from './webhook-delivery.entity';

/*
 * What EVENT_RETENTION deletes, oldest first, at most $2 rows older than $1 per statement; each
 * SELECT walks an index of its own (named beside it) and skips rows another transaction holds.
 * Exported so a test can EXPLAIN them on a large table.
 */

/** Attempts, by webhook_delivery_attempts_attempted_idx. */
export const DUE_ATTEMPTS = `SELECT id FROM webhook_delivery_attempts WHERE attempted_at < $1 ORDER BY attempted_at LIMIT $2 FOR UPDATE SKIP LOCKED`;
/** Settled deliveries (a pending one is kept until it succeeds or fails), by webhook_deliveries_settled_created_idx. */
export const DUE_DELIVERIES = `SELECT id FROM webhook_deliveries WHERE created_at < $1 AND ${SETTLED_DELIVERY} ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED`;
/**
 * Events without a pending delivery, by events_created_idx and webhook_deliveries_pending_event_idx
 * (their settled deliveries, created with them, were deleted by DUE_DELIVERIES just before). Asking
 * for pending deliveries only, which are few, keeps the planner on the index walk: asking for any
 * delivery, while they still exist, makes it expect no match and hash-join both whole tables on
 * every batch.
 */
export const DUE_EVENTS = `SELECT e.id FROM events e WHERE e.created_at < $1 AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.${PENDING_DELIVERY}) ORDER BY e.created_at LIMIT $2 FOR UPDATE OF e SKIP LOCKED`;

/**
 * SQL of the webhooks module's retention: the three deletes, one batch each; and, before them, the
 * monthly partitions that are due whole (monthly-partitions.ts), dropped one at a time.
 */
@Injectable()
export class EventRetentionRepository {
  dropAttemptsPartition(tx: Transaction, cutoff: Date): Promise<number | null> {
    return dropOldestMonthlyPartition(tx.manager, 'webhook_delivery_attempts', cutoff);
  }

  /** Not a month that still holds a pending delivery (rare: a delivery retried for months); its settled rows go row by row. */
  dropDeliveriesPartition(tx: Transaction, cutoff: Date): Promise<number | null> {
    return dropOldestMonthlyPartition(tx.manager, 'webhook_deliveries', cutoff, (partition) => `SELECT 1 FROM ${partition} WHERE ${PENDING_DELIVERY}`);
  }

  /** Not a month of which an event still has a pending delivery (the rule of DUE_EVENTS), found by webhook_deliveries_pending_event_idx. */
  dropEventsPartition(tx: Transaction, cutoff: Date): Promise<number | null> {
    return dropOldestMonthlyPartition(
      tx.manager,
      'events',
      cutoff,
      (partition) => `SELECT 1 FROM webhook_deliveries d JOIN ${partition} e ON e.id = d.event_id WHERE d.${PENDING_DELIVERY}`,
    );
  }

  deleteAttempts(tx: Transaction, cutoff: Date, limit: number): Promise<number> {
    return this.delete(tx, `DELETE FROM webhook_delivery_attempts WHERE id IN (${DUE_ATTEMPTS})`, cutoff, limit);
  }

  deleteDeliveries(tx: Transaction, cutoff: Date, limit: number): Promise<number> {
    return this.delete(tx, `DELETE FROM webhook_deliveries WHERE id IN (${DUE_DELIVERIES})`, cutoff, limit);
  }

  deleteEvents(tx: Transaction, cutoff: Date, limit: number): Promise<number> {
    return this.delete(tx, `DELETE FROM events WHERE id IN (${DUE_EVENTS})`, cutoff, limit);
  }

  private async delete(tx: Transaction, sql: string, cutoff: Date, limit: number): Promise<number> {
    const [, affected]: [unknown, number] = await tx.manager.query(sql, [cutoff, limit]);
    return affected ?? 0;
  }
}
