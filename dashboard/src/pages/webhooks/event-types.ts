import type { Schemas } from '../../api/client';

export type EventType = Schemas['EventResponseDto']['type'];

/**
 * The event types a webhook endpoint can subscribe to, grouped as people think of them. The API's
 * enum in openapi.json is the source; event-types.test.ts fails when the two differ.
 */
export const EVENT_GROUPS: ReadonlyArray<{ label: string; types: readonly EventType[] }> = [
  {
    label: 'Entitlements',
    types: ['entitlement.created', 'entitlement.updated', 'entitlement.revoked', 'entitlement.suspended', 'entitlement.reactivated', 'entitlement.activated', 'entitlement.expired'],
  },
  { label: 'Products and files', types: ['product.created', 'product.updated', 'file.uploaded', 'download.completed'] },
  { label: 'Orders and subscriptions', types: ['order.created', 'order.updated', 'order.refunded', 'subscription.created', 'subscription.updated'] },
  { label: 'Imports', types: ['import.completed'] },
  { label: 'License keys', types: ['license_key.created', 'license.activated', 'license.deactivated', 'license.activation_expired'] },
  { label: 'Usage and billing', types: ['statement.created', 'usage.bandwidth_threshold'] },
];

export const EVENT_TYPES: readonly EventType[] = EVENT_GROUPS.flatMap((group) => group.types);
