import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ApiMode, Tenant } from '../auth/tenant';
import { assertTenant, INSERT_CHUNK_ROWS, TenantTable } from '../database/tenant-table';
import type { Transaction } from '../database/unit-of-work';
import { generateId } from '../ids/id';
import { fetchPageWithTotal } from '../pagination/keyset';
import { PageRequest } from '../pagination/page';
import { WebhookDeliveryAttemptEntity } from './webhook-delivery-attempt.entity';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';

/** A delivery this instance has leased, with what it needs to send and record it. */
export interface ClaimedDelivery {
  id: string;
  merchantId: string;
  mode: ApiMode;
  endpointId: string;
  eventId: string;
  attemptCount: number;
}

export interface AttemptRecord {
  succeeded: boolean;
  statusCode: number | null;
  error: string | null;
  durationMilliseconds: number;
  responseBody: string | null;
  attemptedAt: Date;
  eventType: string;
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
}

/**
 * Claims due deliveries for one instance. SKIP LOCKED lets instances share the queue without
 * taking the same row; the lease (locked_until) outlives a send, so a crashed instance's rows
 * come back when it expires. A delivery waits while an earlier one for its endpoint is in
 * flight or not yet tried, so each endpoint receives events in order when nothing fails.
 */
const CLAIM_SQL = `
UPDATE webhook_deliveries AS delivery
SET locked_until = now() + ($2 * interval '1 millisecond'), updated_at = now()
WHERE delivery.id IN (
  SELECT candidate.id
  FROM webhook_deliveries AS candidate
  JOIN webhook_endpoints AS endpoint ON endpoint.id = candidate.endpoint_id AND endpoint.disabled = false
  WHERE candidate.status = 'pending'
    AND candidate.next_attempt_at <= now()
    AND (candidate.locked_until IS NULL OR candidate.locked_until < now())
    AND NOT EXISTS (
      SELECT 1 FROM webhook_deliveries AS earlier
      WHERE earlier.endpoint_id = candidate.endpoint_id
        AND earlier.status = 'pending'
        AND earlier.id < candidate.id
        AND (earlier.attempt_count = 0 OR earlier.locked_until >= now())
    )
  ORDER BY candidate.id
  LIMIT $1
  FOR UPDATE OF candidate SKIP LOCKED
)
RETURNING delivery.id, delivery.merchant_id, delivery.mode, delivery.endpoint_id, delivery.event_id, delivery.attempt_count`;

@Injectable()
export class WebhookDeliveriesRepository {
  private readonly deliveries = new TenantTable(WebhookDeliveryEntity, 'delivery');
  private readonly attempts = new TenantTable(WebhookDeliveryAttemptEntity, 'attempt');

  constructor(private readonly dataSource: DataSource) {}

  /** Queues the event for each endpoint, in the publishing transaction. */
  /** One delivery per event and subscribed endpoint. */
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
        endpointId: row.endpoint_id,
        eventId: row.event_id,
        attemptCount: row.attempt_count,
      }))
      .sort((first, second) => Number(BigInt(first.id) - BigInt(second.id)));
  }

  /** Stores the attempt and settles the delivery: done, failed for good, or due again later. */
  async recordAttempt(tx: Transaction, delivery: ClaimedDelivery, attempt: AttemptRecord): Promise<void> {
    const tenant: Tenant = { merchantId: delivery.merchantId, mode: delivery.mode };
    const nextAttemptAt = attempt.retryInMilliseconds === null ? null : new Date(attempt.attemptedAt.getTime() + attempt.retryInMilliseconds);
    await this.attempts.insert(tx.manager, tenant, {
      id: generateId('wd'),
      endpoint_id: delivery.endpointId,
      event_id: delivery.eventId,
      event_type: attempt.eventType,
      attempt: delivery.attemptCount + 1,
      succeeded: attempt.succeeded,
      status_code: attempt.statusCode,
      error: attempt.error,
      duration_ms: Math.round(attempt.durationMilliseconds),
      response_body: attempt.responseBody,
      attempted_at: attempt.attemptedAt,
      next_attempt_at: nextAttemptAt,
    });
    await this.deliveries.update(
      tx.manager,
      tenant,
      { id: delivery.id },
      {
        attempt_count: delivery.attemptCount + 1,
        status: attempt.succeeded ? 'succeeded' : nextAttemptAt === null ? 'failed' : 'pending',
        ...(nextAttemptAt ? { next_attempt_at: nextAttemptAt } : {}),
        locked_until: null,
      },
    );
  }

  async listAttempts(tenant: Tenant, endpointId: string, page: PageRequest): Promise<{ rows: WebhookDeliveryAttemptEntity[]; total: number }> {
    const base = () => this.attempts.select(this.dataSource.manager, tenant).andWhere('attempt.endpoint_id = :endpointId', { endpointId });
    return fetchPageWithTotal(base, 'attempt', page, 'attempted_at');
  }
}
