import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ApiMode, Tenant } from '../database/tenant';
import { assertTenant, INSERT_CHUNK_ROWS, TenantTable } from '../database/tenant-table';
import type { Reader, Transaction } from '../database/transaction';
import { generateId } from '../ids/id';
import { fetchPageWithTotal } from '../pagination/keyset';
import { PageRequest } from '../pagination/page';
import type { EventEntity } from './event.entity';
import { WebhookDeliveryAttemptEntity } from './webhook-delivery-attempt.entity';
import { BLOCKING_DELIVERY, WAITING_RETRY, WebhookDeliveryEntity } from './webhook-delivery.entity';
import type { WebhookEndpointEntity } from './webhook-endpoint.entity';

/** What a send needs of the endpoint, read with the claim. */
export type DeliveryEndpoint = Pick<WebhookEndpointEntity, 'id' | 'url' | 'secret' | 'previous_secret' | 'previous_secret_expires_at' | 'private_urls_allowed'>;
/** The event as delivered, read with the claim. */
export type DeliveryEvent = Pick<EventEntity, 'id' | 'mode' | 'type' | 'data' | 'created_at'>;

/** A delivery this instance has leased, with what it needs to send and record it. */
export interface ClaimedDelivery {
  id: string;
  merchantId: string;
  mode: ApiMode;
  attemptCount: number;
  endpoint: DeliveryEndpoint;
  event: DeliveryEvent;
}

export interface AttemptRecord {
  succeeded: boolean;
  statusCode: number | null;
  error: string | null;
  durationMilliseconds: number;
  responseBody: string | null;
  attemptedAt: Date;
  /** Milliseconds until the retry, or null when no retry follows (success, 410, schedule exhausted). */
  retryInMilliseconds: number | null;
}

interface ClaimedRow {
  id: string;
  merchant_id: string;
  mode: ApiMode;
  endpoint_id: string;
  event_id: string;
  attempt_count: number;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  private_urls_allowed: boolean;
  event_type: string;
  event_data: EventEntity['data'];
  event_created_at: Date;
}

/**
 * Claims due deliveries for one instance. Claimable are: the first blocking delivery of each
 * endpoint (its head, BLOCKING_DELIVERY), unless it is in flight; and each retry that is due and
 * comes before its endpoint's head. The heads are found by a skip scan over the blocking index
 * (one probe per endpoint), so a claim costs the same with a backlog of ten deliveries or of a
 * million: checking every due delivery against all earlier ones of its endpoint made a failing
 * endpoint's backlog cost quadratic time, a whole PostgreSQL core for minutes after a burst.
 *
 * SKIP LOCKED lets instances share the queue without taking the same row; the lease (locked_until)
 * outlives a send, so a crashed instance's rows come back when it expires. The endpoint and the
 * event come back with the claim: a send needs no further read. (A delivery whose event is gone
 * is leased but not returned; its lease lapses, as for a disabled endpoint.)
 */
export const CLAIM_SQL = `
WITH RECURSIVE heads AS (
  (SELECT endpoint_id, id FROM webhook_deliveries WHERE ${BLOCKING_DELIVERY} ORDER BY endpoint_id, id LIMIT 1)
  UNION ALL
  SELECT following.endpoint_id, following.id
  FROM heads CROSS JOIN LATERAL (
    SELECT endpoint_id, id FROM webhook_deliveries
    WHERE ${BLOCKING_DELIVERY} AND endpoint_id > heads.endpoint_id
    ORDER BY endpoint_id, id LIMIT 1
  ) AS following
),
candidates AS (
  SELECT id FROM heads
  UNION ALL
  SELECT waiting.id
  FROM (SELECT endpoint_id, id FROM webhook_deliveries WHERE ${WAITING_RETRY} AND next_attempt_at <= now()) AS waiting
  LEFT JOIN heads ON heads.endpoint_id = waiting.endpoint_id
  WHERE heads.id IS NULL OR waiting.id < heads.id
),
claimed AS (
  UPDATE webhook_deliveries AS delivery
  SET locked_until = now() + ($2 * interval '1 millisecond'), updated_at = now()
  WHERE delivery.id IN (
    SELECT candidate.id
    FROM webhook_deliveries AS candidate
    JOIN webhook_endpoints AS endpoint ON endpoint.id = candidate.endpoint_id AND endpoint.disabled = false
    -- Checked again on the row as locked: another instance may have claimed it meanwhile.
    WHERE candidate.id IN (SELECT id FROM candidates)
      AND candidate.status = 'pending'
      AND candidate.next_attempt_at <= now()
      AND (candidate.locked_until IS NULL OR candidate.locked_until < now())
    ORDER BY candidate.id
    LIMIT $1
    FOR UPDATE OF candidate SKIP LOCKED
  )
  RETURNING delivery.id, delivery.merchant_id, delivery.mode, delivery.endpoint_id, delivery.event_id, delivery.attempt_count
)
SELECT claimed.*, endpoint.url, endpoint.secret, endpoint.previous_secret, endpoint.previous_secret_expires_at,
  endpoint.private_urls_allowed, event.type AS event_type, event.data AS event_data, event.created_at AS event_created_at
FROM claimed
JOIN webhook_endpoints AS endpoint
  ON endpoint.id = claimed.endpoint_id AND endpoint.merchant_id = claimed.merchant_id AND endpoint.mode = claimed.mode
JOIN events AS event
  ON event.id = claimed.event_id AND event.merchant_id = claimed.merchant_id AND event.mode = claimed.mode`;

/**
 * The attempt and the delivery's new state in one statement (atomic on its own): the dispatcher
 * records an attempt with one round trip, outside any transaction, unless the endpoint is also
 * disabled (410 Gone), when it runs in that transaction.
 */
const RECORD_ATTEMPT_SQL = `
WITH attempt AS (
  INSERT INTO webhook_delivery_attempts
    (id, merchant_id, mode, endpoint_id, event_id, event_type, attempt, succeeded, status_code, error, duration_ms, response_body, attempted_at, next_attempt_at)
  VALUES ($4, $2, $3, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
)
UPDATE webhook_deliveries
SET attempt_count = $8, status = $16, next_attempt_at = COALESCE($15, next_attempt_at), locked_until = NULL, updated_at = now()
WHERE id = $1 AND merchant_id = $2 AND mode = $3`;

@Injectable()
export class WebhookDeliveriesRepository {
  private readonly attempts = new TenantTable(WebhookDeliveryAttemptEntity, 'attempt');

  constructor(private readonly dataSource: DataSource) {}

  /** One delivery per event and subscribed endpoint, in the publishing transaction. */
  async enqueue(tx: Transaction, tenant: Tenant, eventIds: string[], endpointIds: string[]): Promise<void> {
    assertTenant(tenant);
    const deliveries = eventIds.flatMap((eventId) =>
      endpointIds.map((endpointId) => ({
        merchant_id: tenant.merchantId,
        mode: tenant.mode,
        endpoint_id: endpointId,
        event_id: eventId,
        next_attempt_at: () => 'now()',
      })),
    );
    // Bounded statements: PostgreSQL takes at most 65,535 parameters in one.
    for (let start = 0; start < deliveries.length; start += INSERT_CHUNK_ROWS) {
      await tx.manager.createQueryBuilder().insert().into(WebhookDeliveryEntity).values(deliveries.slice(start, start + INSERT_CHUNK_ROWS)).execute();
    }
  }

  /** Leases due deliveries of every tenant (maintenance: the dispatcher serves them all). */
  async claimDueAcrossTenants(limit: number, leaseMilliseconds: number): Promise<ClaimedDelivery[]> {
    const result: unknown = await this.dataSource.query(CLAIM_SQL, [limit, leaseMilliseconds]);
    // The pg driver answers an UPDATE … RETURNING with [rows, count].
    const rows = (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as ClaimedRow[];
    return rows
      .map((row) => ({
        id: String(row.id),
        merchantId: row.merchant_id,
        mode: row.mode,
        attemptCount: row.attempt_count,
        endpoint: {
          id: row.endpoint_id,
          url: row.url,
          secret: row.secret,
          previous_secret: row.previous_secret,
          previous_secret_expires_at: row.previous_secret_expires_at,
          private_urls_allowed: row.private_urls_allowed,
        },
        event: { id: row.event_id, mode: row.mode, type: row.event_type, data: row.event_data, created_at: row.event_created_at },
      }))
      .sort((first, second) => Number(BigInt(first.id) - BigInt(second.id)));
  }

  /**
   * Stores the attempt and settles the delivery: done, failed for good, or due again later. One
   * statement, so `db` may be the pool (the usual case) or the transaction that also disables the
   * endpoint (a Transaction is a Reader).
   */
  async recordAttempt(db: Reader, delivery: ClaimedDelivery, attempt: AttemptRecord): Promise<void> {
    const nextAttemptAt = attempt.retryInMilliseconds === null ? null : new Date(attempt.attemptedAt.getTime() + attempt.retryInMilliseconds);
    const status = attempt.succeeded ? 'succeeded' : nextAttemptAt === null ? 'failed' : 'pending';
    await db.manager.query(RECORD_ATTEMPT_SQL, [
      delivery.id,
      delivery.merchantId,
      delivery.mode,
      generateId('wd'),
      delivery.endpoint.id,
      delivery.event.id,
      delivery.event.type,
      delivery.attemptCount + 1,
      attempt.succeeded,
      attempt.statusCode,
      attempt.error,
      Math.round(attempt.durationMilliseconds),
      attempt.responseBody,
      attempt.attemptedAt,
      nextAttemptAt,
      status,
    ]);
  }

  /** Records an attempt that belongs to no queued delivery (a test send): it is listed like any other. */
  recordLoneAttempt(db: Reader, tenant: Tenant, attempt: Omit<WebhookDeliveryAttemptEntity, 'merchant_id' | 'mode' | 'endpoint'>): Promise<WebhookDeliveryAttemptEntity> {
    return this.attempts.insert(db.manager, tenant, attempt);
  }

  /** One keyset page of attempts, newest first, of one endpoint or of one event (to every endpoint), and their total. */
  async listAttempts(tenant: Tenant, of: { endpointId: string } | { eventId: string }, page: PageRequest): Promise<{ rows: WebhookDeliveryAttemptEntity[]; total: number }> {
    const base = () =>
      'endpointId' in of
        ? this.attempts.select(this.dataSource.manager, tenant).andWhere('attempt.endpoint_id = :endpointId', { endpointId: of.endpointId })
        : this.attempts.select(this.dataSource.manager, tenant).andWhere('attempt.event_id = :eventId', { eventId: of.eventId });
    return fetchPageWithTotal(base, 'attempt', page, 'attempted_at');
  }
}
