import type { Tenant } from './tenant';

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
  'license_key.created',
  'license.activated',
  'license.deactivated',
  'license.activation_expired',
  'statement.created',
  'usage.bandwidth_threshold',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** One event as published: its type, its tenant and the resource after the change, in its API shape. */
export interface PublishedEvent {
  readonly type: EventType;
  readonly tenant: Tenant;
  readonly object: Record<string, unknown>;
}

/** Emitter channel of domain events; listeners subscribe with `@OnEvent(DOMAIN_EVENT)`. */
export const DOMAIN_EVENT = 'domain-event';
/** Emitted after a transaction that published events has committed: wakes the dispatcher. */
export const EVENTS_COMMITTED = 'domain-events-committed';
