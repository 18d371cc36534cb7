import { Injectable } from '@nestjs/common';
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
 * (their settled deliveries go by ON DELETE CASCADE, through webhook_deliveries_event_idx). Asking
 * for pending deliveries only, which are few, keeps the planner on the index walk: asking for any
 * delivery, while they still exist, makes it expect no match and hash-join both whole tables on
 * every batch.
 */
export const DUE_EVENTS = `SELECT e.id FROM events e WHERE e.created_at < $1 AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.${PENDING_DELIVERY}) ORDER BY e.created_at LIMIT $2 FOR UPDATE OF e SKIP LOCKED`;

/** SQL of the webhooks module's retention: the three deletes, one batch each. */
@Injectable()
export class EventRetentionRepository {
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
