import { Injectable } from '@nestjs/common';
import type { WritePart } from '../database/combined-statement';
import type { Tenant } from '../database/tenant';
import { assertTenant } from '../database/tenant-table';
import { generateId } from '../ids/id';

/**
 * What a delivery is ordered by: its object's id (the entitlement, order, product...), or the
 * event's own id for an object without one (then it waits for nothing). Every delivery is queued
 * with it, here and on redelivery.
 */
export function deliveryObjectId(object: Record<string, unknown>, eventId: string): string {
  return typeof object.id === 'string' ? object.id : eventId;
}

/**
 * An event's data: the object, and the test clock of its customer when the object names one
 * (DESIGN §14: a test clock's events say so; their created_at stays the real time).
 */
export function eventDataOf(object: Record<string, unknown>): { object: Record<string, unknown>; test_clock?: string } {
  return typeof object.test_clock === 'string' ? { object, test_clock: object.test_clock } : { object };
}

export interface OutboxEntry {
  type: string;
  object: Record<string, unknown>;
}

/**
 * The events, then one delivery per event and subscribed enabled endpoint, as two parts of the
 * publishing write's closing statement (`UnitOfWork`): the outbox adds no round trip, whatever the
 * number of events, their types or the endpoints (every write publishes, so this is on the path
 * of every create, use and download).
 */
@Injectable()
export class OutboxRepository {
  /** The events and their deliveries as parts of a combined write; `index` keeps their names unique in it. */
  recordParts(tenant: Tenant, entries: ReadonlyArray<OutboxEntry>, index: number): WritePart[] {
    assertTenant(tenant);
    const { ids, types, data, objectIds } = this.rows(entries);
    const eventsPart = `outbox_events_${index}`;
    return [
      {
        name: eventsPart,
        render: (parameters) => {
          const merchant = parameters.text(tenant.merchantId);
          const mode = parameters.text(tenant.mode);
          return `INSERT INTO events (id, merchant_id, mode, type, data)
            SELECT event.id, ${merchant}, ${mode}, event.type, event.data
            FROM unnest(${parameters.textArray(ids)}, ${parameters.textArray(types)}, ${parameters.jsonbArray(data)}) WITH ORDINALITY AS event(id, type, data, position)
            ORDER BY event.position
            RETURNING id, type`;
        },
      },
      {
        name: `outbox_deliveries_${index}`,
        uses: [eventsPart],
        render: (parameters) => {
          const merchant = parameters.text(tenant.merchantId);
          const mode = parameters.text(tenant.mode);
          return `INSERT INTO webhook_deliveries (merchant_id, mode, endpoint_id, event_id, object_id, next_attempt_at)
            SELECT ${merchant}, ${mode}, endpoint.id, inserted.id, object.object_id, now()
            FROM ${eventsPart} inserted
            JOIN unnest(${parameters.textArray(ids)}, ${parameters.textArray(objectIds)}) AS object(event_id, object_id) ON object.event_id = inserted.id
            CROSS JOIN webhook_endpoints endpoint
            WHERE endpoint.merchant_id = ${merchant} AND endpoint.mode = ${mode} AND endpoint.disabled = false
              AND (inserted.type = ANY(endpoint.enabled_events) OR '*' = ANY(endpoint.enabled_events))
            RETURNING 1`;
        },
      },
    ];
  }

  /** Each entry's event id (time-ordered in the entries' order), type, stored data and delivery object id. */
  private rows(entries: ReadonlyArray<OutboxEntry>): { ids: string[]; types: string[]; data: unknown[]; objectIds: string[] } {
    const ids = entries.map(() => generateId('evt'));
    return {
      ids,
      types: entries.map((entry) => entry.type),
      data: entries.map((entry) => eventDataOf(entry.object)),
      objectIds: entries.map((entry, index) => deliveryObjectId(entry.object, ids[index])),
    };
  }
}
