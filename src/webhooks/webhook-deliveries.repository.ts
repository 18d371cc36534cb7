import { Injectable } from '@nestjs/common';
import type { Pool, PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { DatabaseConnection } from '../database/database-connection';
import type { ApiMode, Tenant } from '../database/tenant';
import { assertTenant, INSERT_CHUNK_ROWS, TenantTable } from '../database/tenant-table';
import type { Reader, Transaction } from '../database/transaction';
import { generateId } from '../ids/id';
import { fetchPageWithTotal } from '../pagination/keyset';
import { PageRequest } from '../pagination/page';
import type { EventEntity } from './event.entity';
import { WebhookDeliveryAttemptEntity } from './webhook-delivery-attempt.entity';
import { BLOCKING_DELIVERY, LEASED_DELIVERY, PENDING_DELIVERY, WAITING_RETRY, WebhookDeliveryEntity } from './webhook-delivery.entity';
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

/** How far the claim looks into an endpoint's queue: the first this many blocking deliveries. */
export const CLAIM_WINDOW = 1_000;

/** The claim's bounds: rows leased at most, lease length, in flight per endpoint, and the window. */
export interface ClaimBounds {
  limit: number;
  leaseMilliseconds: number;
  endpointConcurrency: number;
  window: number;
}

/**
 * Claims due deliveries for one instance (DESIGN §8). A pending delivery is claimable when it is
 * due, not in flight, its endpoint is enabled, and no earlier delivery of the same object to the
 * same endpoint is blocking (untried or leased: BLOCKING_DELIVERY); each endpoint gets at most
 * its concurrency ($3) in flight (live leases), the oldest claimable first. The candidates of an
 * endpoint are its first $4 (the window) blocking deliveries (its queue's head, one index range)
 * and its due retries, so a claim costs the same with a backlog of ten deliveries or of a
 * million; an event farther back than the window waits until the head drains, even when its
 * object is free. Endpoints are found by a skip scan over the blocking index (one probe each).
 * $1: rows leased at most; $2: the lease in milliseconds.
 *
 * SKIP LOCKED and the recheck on the locked row keep a claim off rows another one holds; the
 * lease (locked_until) outlives a send, so a crashed instance's rows come back when it expires.
 * The endpoint and the event come back with the claim: a send needs no further read. (A delivery
 * whose event is gone is leased but not returned; its lease lapses, as for a disabled endpoint.)
 */
export const CLAIM_SQL = `
WITH RECURSIVE endpoints AS (
  (SELECT endpoint_id FROM webhook_deliveries WHERE ${BLOCKING_DELIVERY} ORDER BY endpoint_id LIMIT 1)
  UNION ALL
  SELECT following.endpoint_id
  FROM endpoints CROSS JOIN LATERAL (
    SELECT endpoint_id FROM webhook_deliveries
    WHERE ${BLOCKING_DELIVERY} AND endpoint_id > endpoints.endpoint_id
    ORDER BY endpoint_id LIMIT 1
  ) AS following
),
due_retries AS (
  SELECT id, endpoint_id, object_id FROM webhook_deliveries WHERE ${WAITING_RETRY} AND next_attempt_at <= now()
),
room AS (
  SELECT active.endpoint_id,
    $3 - (SELECT count(*) FROM webhook_deliveries AS leased
      WHERE leased.endpoint_id = active.endpoint_id AND ${LEASED_DELIVERY} AND leased.locked_until >= now()) AS free
  FROM (SELECT endpoint_id FROM endpoints UNION SELECT endpoint_id FROM due_retries) AS active
  JOIN webhook_endpoints AS endpoint ON endpoint.id = active.endpoint_id AND endpoint.disabled = false
),
candidates AS (
  SELECT head.id, room.endpoint_id, room.free
  FROM room CROSS JOIN LATERAL (
    SELECT queued.id FROM (
      SELECT id, object_id, locked_until, next_attempt_at FROM webhook_deliveries
      WHERE ${BLOCKING_DELIVERY} AND endpoint_id = room.endpoint_id
      ORDER BY id LIMIT $4
    ) AS queued
    WHERE (queued.locked_until IS NULL OR queued.locked_until < now()) AND queued.next_attempt_at <= now()
      AND NOT EXISTS (
        SELECT 1 FROM webhook_deliveries AS earlier
        WHERE ${prefixed('earlier', BLOCKING_DELIVERY)} AND earlier.endpoint_id = room.endpoint_id
          AND earlier.object_id = queued.object_id AND earlier.id < queued.id
      )
    ORDER BY queued.id LIMIT GREATEST(room.free, 0)
  ) AS head
  UNION ALL
  SELECT retry.id, room.endpoint_id, room.free
  FROM room JOIN due_retries AS retry ON retry.endpoint_id = room.endpoint_id
  WHERE room.free > 0 AND NOT EXISTS (
    SELECT 1 FROM webhook_deliveries AS earlier
    WHERE ${prefixed('earlier', BLOCKING_DELIVERY)} AND earlier.endpoint_id = retry.endpoint_id
      AND earlier.object_id = retry.object_id AND earlier.id < retry.id
  )
),
chosen AS (
  SELECT id FROM (
    SELECT id, free, row_number() OVER (PARTITION BY endpoint_id ORDER BY id) AS place FROM candidates
  ) AS ranked
  WHERE place <= free
),
claimed AS (
  UPDATE webhook_deliveries AS delivery
  SET locked_until = now() + ($2 * interval '1 millisecond'), updated_at = now()
  -- Arrays, so the rows are found by their key: a join was planned as a walk of the primary key
  -- from the table's start, through every delivery ever made.
  WHERE delivery.id = ANY(ARRAY(
    SELECT candidate.id
    FROM webhook_deliveries AS candidate
    -- Checked again on the row as locked: another instance may have claimed it meanwhile.
    WHERE candidate.id = ANY(ARRAY(SELECT id FROM chosen))
      AND candidate.status = 'pending'
      AND candidate.next_attempt_at <= now()
      AND (candidate.locked_until IS NULL OR candidate.locked_until < now())
    ORDER BY candidate.id
    LIMIT $1
    FOR UPDATE OF candidate SKIP LOCKED
  ))
  RETURNING delivery.id, delivery.merchant_id, delivery.mode, delivery.endpoint_id, delivery.event_id, delivery.attempt_count
)
SELECT claimed.*, endpoint.url, endpoint.secret, endpoint.previous_secret, endpoint.previous_secret_expires_at,
  endpoint.private_urls_allowed, event.type AS event_type, event.data AS event_data, event.created_at AS event_created_at
FROM claimed
-- By primary key: OFFSET 0 keeps the tenant's columns out of the lookup (given them, the planner
-- chose the tenant's event index, every event of the merchant for each row); checked after it.
CROSS JOIN LATERAL (
  SELECT merchant_id, mode, url, secret, previous_secret, previous_secret_expires_at, private_urls_allowed
  FROM webhook_endpoints WHERE id = claimed.endpoint_id OFFSET 0
) AS endpoint
CROSS JOIN LATERAL (SELECT merchant_id, mode, type, data, created_at FROM events WHERE id = claimed.event_id OFFSET 0) AS event
WHERE endpoint.merchant_id = claimed.merchant_id AND endpoint.mode = claimed.mode
  AND event.merchant_id = claimed.merchant_id AND event.mode = claimed.mode`;

/**
 * Claims of all instances take turns on this advisory lock. It is taken by a statement of its own
 * before the claim, in the same round trip (a multi-statement simple query runs as one
 * transaction, each statement with a fresh snapshot), so the claim sees every lease committed
 * before it and the concurrency bound holds across instances. The claim itself is prepared once
 * per connection (planning it cost more than running it), unless DATABASE_PREPARED_STATEMENTS=false:
 * behind a transaction pooler the connection that ran PREPARE may not be the one that gets the
 * EXECUTE, so the claim's text is sent whole, its bounds inlined (DESIGN §15).
 */
const CLAIM_LOCK_KEY = 2_026_112_608;
const CLAIM_STATEMENT = 'webhook_claim_deliveries';
const PREPARE_CLAIM_SQL = `PREPARE ${CLAIM_STATEMENT} (int, int, int, int) AS ${CLAIM_SQL}`;

/**
 * The lock and the claim, one round trip; the bounds are inlined (a simple query takes no parameters),
 * integers only: as EXECUTE's arguments, or (`prepared` false) in place of the claim's $1…$4.
 */
export function lockAndClaimSql({ limit, leaseMilliseconds, endpointConcurrency, window }: ClaimBounds, prepared: boolean): string {
  const bounds = [limit, leaseMilliseconds, endpointConcurrency, window];
  for (const value of bounds) {
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`claim bound ${value} is not a non-negative integer`);
  }
  const claim = prepared ? `EXECUTE ${CLAIM_STATEMENT} (${bounds.join(', ')})` : CLAIM_SQL.replace(/\$([1-4])\b/g, (_, index: string) => `(${bounds[Number(index) - 1]})::int`);
  return `SELECT pg_advisory_xact_lock(${CLAIM_LOCK_KEY}); ${claim}`;
}

/** A predicate of delivery columns, with every column qualified by `alias`. */
function prefixed(alias: string, predicate: string): string {
  return predicate.replace(/\b(status|attempt_count|locked_until)\b/g, `${alias}.$1`);
}

/**
 * Attempts and their deliveries' new states, many in one statement (atomic on its own): the
 * dispatcher records every attempt that finished while the previous batch was being written
 * together, outside any transaction, unless an endpoint is also disabled (410 Gone), when it
 * runs in that transaction. The deliveries are found by key (= ANY), never by a join the planner
 * might turn into a scan of the whole queue.
 */
export const RECORD_ATTEMPTS_SQL = `
WITH input AS (
  SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::boolean[],
    $10::int[], $11::text[], $12::int[], $13::text[], $14::timestamptz[], $15::timestamptz[], $16::text[])
  AS input(delivery_id, merchant_id, mode, attempt_id, endpoint_id, event_id, event_type, attempt, succeeded, status_code, error,
    duration_ms, response_body, attempted_at, next_attempt_at, status)
), attempts AS (
  INSERT INTO webhook_delivery_attempts
    (id, merchant_id, mode, endpoint_id, event_id, event_type, attempt, succeeded, status_code, error, duration_ms, response_body, attempted_at, next_attempt_at)
  SELECT attempt_id, merchant_id, mode, endpoint_id, event_id, event_type, attempt, succeeded, status_code, error, duration_ms, response_body, attempted_at, next_attempt_at
  FROM input
)
UPDATE webhook_deliveries AS delivery
SET attempt_count = input.attempt, status = input.status, next_attempt_at = COALESCE(input.next_attempt_at, delivery.next_attempt_at),
  locked_until = NULL, updated_at = now()
FROM input
WHERE delivery.id = ANY($1::bigint[]) AND delivery.id = input.delivery_id AND delivery.merchant_id = input.merchant_id AND delivery.mode = input.mode`;

/** One finished attempt of a claimed delivery. */
export interface FinishedAttempt {
  delivery: ClaimedDelivery;
  attempt: AttemptRecord;
}

@Injectable()
export class WebhookDeliveriesRepository {
  private readonly attempts = new TenantTable(WebhookDeliveryAttemptEntity, 'attempt');
  /** The pool's connections on which the claim is prepared (a prepared statement lives as long as its connection). */
  private readonly prepared = new WeakSet<PoolClient>();

  /** The DataSource only for its pg Pool: the claim's prepared statement and the pending count (maintenance, every tenant). */
  constructor(
    private readonly dataSource: DataSource,
    private readonly connection: DatabaseConnection,
  ) {}

  /** One delivery per event and endpoint (a redelivery), in the caller's transaction; `objectId` as deliveryObjectId gives it. */
  async enqueue(tx: Transaction, tenant: Tenant, events: ReadonlyArray<{ id: string; objectId: string }>, endpointIds: string[]): Promise<void> {
    assertTenant(tenant);
    const deliveries = events.flatMap((event) =>
      endpointIds.map((endpointId) => ({
        merchant_id: tenant.merchantId,
        mode: tenant.mode,
        endpoint_id: endpointId,
        event_id: event.id,
        object_id: event.objectId,
        next_attempt_at: () => 'now()',
      })),
    );
    // Bounded statements: PostgreSQL takes at most 65,535 parameters in one.
    for (let start = 0; start < deliveries.length; start += INSERT_CHUNK_ROWS) {
      await tx.manager.createQueryBuilder().insert().into(WebhookDeliveryEntity).values(deliveries.slice(start, start + INSERT_CHUNK_ROWS)).execute();
    }
  }

  /** Leases due deliveries of every tenant (maintenance: the dispatcher serves them all); see CLAIM_SQL. */
  async claimDueAcrossTenants(bounds: ClaimBounds): Promise<ClaimedDelivery[]> {
    const client = await this.pool().connect();
    let rows: ClaimedRow[];
    try {
      const prepared = this.connection.preparedStatements;
      if (prepared && !this.prepared.has(client)) {
        await client.query(PREPARE_CLAIM_SQL);
        this.prepared.add(client);
      }
      // A multi-statement simple query: pg answers it with one result per statement, the claim's last.
      const results = (await client.query(lockAndClaimSql(bounds, prepared))) as unknown as Array<{ rows: ClaimedRow[] }>;
      rows = results[results.length - 1].rows;
    } finally {
      client.release();
    }
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
   * How many deliveries of every tenant are pending and the oldest one's age in seconds, for the
   * metrics (maintenance: an operator's view, no tenant). The pending partial index keeps it cheap.
   */
  async pendingAcrossTenants(): Promise<{ count: number; oldestAgeSeconds: number }> {
    const { rows } = await this.pool().query<{ count: string; oldest_age_seconds: number | null }>(
      `SELECT count(*) AS count, EXTRACT(EPOCH FROM now() - min(created_at))::float8 AS oldest_age_seconds FROM webhook_deliveries WHERE ${PENDING_DELIVERY}`,
    );
    return { count: Number(rows[0].count), oldestAgeSeconds: Math.max(0, rows[0].oldest_age_seconds ?? 0) };
  }

  /** The main pool's pg Pool: TypeORM sends parameterless statements through the extended protocol too. */
  private pool(): Pool {
    return (this.dataSource.driver as PostgresDriver).master as Pool;
  }

  /**
   * Stores the attempts and settles their deliveries: done, failed for good, or due again later.
   * One statement, so `db` may be the pool (the usual case) or the transaction that also disables
   * an endpoint (a Transaction is a Reader).
   */
  async recordAttempts(db: Reader, finished: ReadonlyArray<FinishedAttempt>): Promise<void> {
    if (finished.length === 0) return;
    const column = <Value>(pick: (entry: FinishedAttempt) => Value) => finished.map(pick);
    const nextAttemptAt = ({ attempt }: FinishedAttempt) =>
      attempt.retryInMilliseconds === null ? null : new Date(attempt.attemptedAt.getTime() + attempt.retryInMilliseconds);
    await db.manager.query(RECORD_ATTEMPTS_SQL, [
      column(({ delivery }) => delivery.id),
      column(({ delivery }) => delivery.merchantId),
      column(({ delivery }) => delivery.mode),
      column(() => generateId('wd')),
      column(({ delivery }) => delivery.endpoint.id),
      column(({ delivery }) => delivery.event.id),
      column(({ delivery }) => delivery.event.type),
      column(({ delivery }) => delivery.attemptCount + 1),
      column(({ attempt }) => attempt.succeeded),
      column(({ attempt }) => attempt.statusCode),
      column(({ attempt }) => attempt.error),
      column(({ attempt }) => Math.round(attempt.durationMilliseconds)),
      column(({ attempt }) => attempt.responseBody),
      column(({ attempt }) => attempt.attemptedAt),
      column(nextAttemptAt),
      column((entry) => (entry.attempt.succeeded ? 'succeeded' : nextAttemptAt(entry) === null ? 'failed' : 'pending')),
    ]);
  }

  /** Records an attempt that belongs to no queued delivery (a test send): it is listed like any other. */
  recordLoneAttempt(db: Reader, tenant: Tenant, attempt: Omit<WebhookDeliveryAttemptEntity, 'merchant_id' | 'mode' | 'endpoint'>): Promise<WebhookDeliveryAttemptEntity> {
    return this.attempts.insert(db.manager, tenant, attempt);
  }

  /**
   * One keyset page of attempts, newest first, and their total: of one endpoint, of one event (to
   * every endpoint), or of the tenant (to every endpoint, GET /v1/webhook-deliveries), optionally
   * only those that succeeded or failed.
   */
  async listAttempts(
    db: Reader,
    tenant: Tenant,
    of: { endpointId: string } | { eventId: string } | { tenant: true },
    page: PageRequest,
    succeeded?: boolean,
  ): Promise<{ rows: WebhookDeliveryAttemptEntity[]; total: number }> {
    const base = () => {
      const query = this.attempts.select(db.manager, tenant);
      if ('endpointId' in of) query.andWhere('attempt.endpoint_id = :endpointId', { endpointId: of.endpointId });
      if ('eventId' in of) query.andWhere('attempt.event_id = :eventId', { eventId: of.eventId });
      if (succeeded !== undefined) query.andWhere('attempt.succeeded = :succeeded', { succeeded });
      return query;
    };
    return fetchPageWithTotal(base, 'attempt', page, 'attempted_at');
  }
}
