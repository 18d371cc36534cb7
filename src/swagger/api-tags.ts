/**
 * The document's tags, declared in the order Swagger UI and generated clients list them: what a
 * merchant's backend calls most first, operations (health, admin) last. A controller's
 * `@ApiTags` must name one of these (test/e2e/openapi-document.e2e-spec.ts checks it).
 */
export const API_TAGS: ReadonlyArray<{ name: string; description: string }> = [
  { name: 'entitlements', description: 'Grant products to customers, check access fast, and run the lifecycle: suspend, reactivate, revoke, usage, signed tokens' },
  { name: 'products', description: 'What can be granted: entitlement type (permanent, time-limited, usage-limited, subscription-linked) and how access is delivered' },
  { name: 'orders', description: 'Store orders and refunds: each granted line item becomes an entitlement; refunds revoke exactly those' },
  { name: 'subscriptions', description: "Store subscriptions: one subscription-linked entitlement kept in step with the store's status" },
  { name: 'grant-rules', description: 'Rules that grant a second product whenever a trigger product is granted, by any source' },
  { name: 'entitlement-imports', description: 'Bulk imports of existing grants (CSV or JSON, up to 100,000 rows), processed in the background' },
  { name: 'licenses', description: "License keys issued with grants, the devices they are active on, and the customer's app's routes (validate, activate, deactivate, heartbeat) authenticated by the key alone" },
  { name: 'search', description: 'Find any record by its id or the start of its store id: one box for customers, entitlements, products, orders, subscriptions, files and events' },
  { name: 'customers', description: "A customer's entitlements and downloadable files, by customer id or store customer id" },
  { name: 'portal', description: 'The hosted customer portal: one-time links your backend redirects a customer to (downloads, license keys, devices), and its branding' },
  { name: 'files', description: 'Upload files through signed URLs, confirm them, and deliver them to entitled customers, metered against the plan' },
  { name: 'events', description: 'The event log: every state change as an event, and redelivery to webhook endpoints' },
  { name: 'webhooks', description: 'Webhook endpoints that receive signed events, with their delivery attempts' },
  { name: 'audit-log', description: 'Who did what: every write, sign-in and team change, recorded with the change itself (append-only)' },
  { name: 'usage', description: "This month's usage and overage charge, and the monthly statements of closed months" },
  { name: 'test-clocks', description: "Test mode: clocks whose customers live at a frozen time you advance, to test day 31 without waiting 30 days" },
  { name: 'health', description: 'Liveness and readiness probes for load balancers and orchestrators; no authentication' },
  { name: 'admin', description: 'Operator API (enabled by ADMIN_TOKEN): merchants, API keys, usage and monthly statements' },
];
