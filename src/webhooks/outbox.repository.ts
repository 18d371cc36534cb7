import { Injectable } from '@nestjs/common';
import type { Tenant } from '../auth/tenant';
import { assertTenant } from '../database/tenant-table';
import type { Transaction } from '../database/unit-of-work';
import { generateId } from '../ids/id';

/**
 * The events, then one delivery per event and subscribed enabled endpoint, in one statement: the
 * outbox costs one round trip per publish, whatever the number of events or endpoints (every
 * write publishes, so this is on the path of every create, use and download).
 */
const RECORD_SQL = `
WITH inserted AS (
  INSERT INTO events (id, merchant_id, mode, type, data)
  SELECT event.id, $1, $2, $3, event.data
  FROM unnest($4::text[], $5::jsonb[]) WITH ORDINALITY AS event(id, data, position)
  ORDER BY event.position
  RETURNING id
), queued AS (
  INSERT INTO webhook_deliveries (merchant_id, mode, endpoint_id, event_id, next_attempt_at)
  SELECT $1, $2, endpoint.id, inserted.id, now()
  FROM inserted
  CROSS JOIN webhook_endpoints endpoint
  WHERE endpoint.merchant_id = $1 AND endpoint.mode = $2 AND endpoint.disabled = false
    AND ($3 = ANY(endpoint.enabled_events) OR '*' = ANY(endpoint.enabled_events))
  RETURNING 1
)
SELECT (SELECT count(*) FROM inserted)::int AS events, (SELECT count(*) FROM queued)::int AS deliveries`;

@Injectable()
export class OutboxRepository {
  /** Records one event per object (ids time-ordered in the objects' order) and queues their deliveries, in the publishing transaction. */
  async record(tx: Transaction, tenant: Tenant, type: string, objects: ReadonlyArray<Record<string, unknown>>): Promise<{ events: number; deliveries: number }> {
    assertTenant(tenant);
    const ids = objects.map(() => generateId('evt'));
    const data = objects.map((object) => JSON.stringify({ object }));
    const rows = (await tx.manager.query(RECORD_SQL, [tenant.merchantId, tenant.mode, type, ids, data])) as Array<{ events: number; deliveries: number }>;
    return rows[0];
  }
}
