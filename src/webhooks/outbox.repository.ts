import { Injectable } from '@nestjs/common';
import type { Tenant } from '../database/tenant';
import { assertTenant } from '../database/tenant-table';
import type { Transaction } from '../database/transaction';
import { generateId } from '../ids/id';

/**
 * The events, then one delivery per event and subscribed enabled endpoint, in one statement: the
 * outbox costs one round trip per transaction, whatever the number of events, their types or the
 * endpoints (every write publishes, so this is on the path of every create, use and download).
 */
const RECORD_SQL = `
WITH inserted AS (
  INSERT INTO events (id, merchant_id, mode, type, data)
  SELECT event.id, $1, $2, event.type, event.data
  FROM unnest($3::text[], $4::text[], $5::jsonb[]) WITH ORDINALITY AS event(id, type, data, position)
  ORDER BY event.position
  RETURNING id, type
), queued AS (
  INSERT INTO webhook_deliveries (merchant_id, mode, endpoint_id, event_id, next_attempt_at)
  SELECT $1, $2, endpoint.id, inserted.id, now()
  FROM inserted
  CROSS JOIN webhook_endpoints endpoint
  WHERE endpoint.merchant_id = $1 AND endpoint.mode = $2 AND endpoint.disabled = false
    AND (inserted.type = ANY(endpoint.enabled_events) OR '*' = ANY(endpoint.enabled_events))
  RETURNING 1
)
SELECT (SELECT count(*) FROM inserted)::int AS events, (SELECT count(*) FROM queued)::int AS deliveries`;

export interface OutboxEntry {
  type: string;
  object: Record<string, unknown>;
}

@Injectable()
export class OutboxRepository {
  /** Records one event per entry (ids time-ordered in the entries' order) and queues their deliveries, in the publishing transaction. */
  async record(tx: Transaction, tenant: Tenant, entries: ReadonlyArray<OutboxEntry>): Promise<{ events: number; deliveries: number }> {
    assertTenant(tenant);
    const ids = entries.map(() => generateId('evt'));
    const types = entries.map((entry) => entry.type);
    const data = entries.map((entry) => JSON.stringify({ object: entry.object }));
    const rows = (await tx.manager.query(RECORD_SQL, [tenant.merchantId, tenant.mode, ids, types, data])) as Array<{ events: number; deliveries: number }>;
    return rows[0];
  }
}
