import type { Tenant } from '../auth/tenant';
import type { Transaction } from '../database/unit-of-work';

/** Every event type of DESIGN §8. */
export const EVENT_TYPES = [
  'entitlement.created',
  'entitlement.updated',
  'entitlement.revoked',
  'entitlement.suspended',
  'entitlement.reactivated',
  'entitlement.activated',
  'entitlement.expired',
  'file.uploaded',
  'download.completed',
  'product.created',
  'product.updated',
  'order.created',
  'order.updated',
  'order.refunded',
  'subscription.created',
  'subscription.updated',
  'import.completed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/**
 * Emitted (awaited) inside a transaction; listeners write with `tx` so they commit or roll back
 * with it. One or more events of one type: a bulk grant (an import batch) records its events in
 * one statement instead of one per entitlement.
 */
export class DomainEvent {
  constructor(
    readonly type: EventType,
    readonly tenant: Tenant,
    /** Each resource after the change, in its API shape: one event per object, in this order. */
    readonly objects: ReadonlyArray<Record<string, unknown>>,
    readonly tx: Transaction,
  ) {}
}

/** Emitter channel of domain events; listeners subscribe with `@OnEvent(DOMAIN_EVENT)`. */
export const DOMAIN_EVENT = 'domain-event';
/** Emitted after a transaction that published events has committed: wakes the dispatcher. */
export const EVENTS_COMMITTED = 'domain-events-committed';
