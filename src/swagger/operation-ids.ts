/**
 * operationIds a person would choose: `<group>.<verb>`, grouped as the SDK exposes them
 * (`entitlements.check`, `customers.listEntitlements`). A client generator turns these into method
 * names, so they are part of the contract: renaming one breaks every generated client.
 *
 * By default the group is the controller's name in lower camel case and the verb its method's name
 * (ProductsController.list → `products.list`); the map below names the routes whose controller or
 * method name reads badly from outside.
 */
const EXPLICIT_OPERATION_IDS: Record<string, string> = {
  'AdminUsageController.usage': 'admin.getUsage',
  'EntitlementTokensController.issue': 'entitlements.issueToken',
  'JwksController.jwks': 'entitlements.getSigningKeys',
  'JwksController.issuer': 'entitlements.getTokenIssuer',
  'DashboardUsersAdminController.createUser': 'admin.createDashboardUser',
  // One call creates the order or updates it (by store_order_id / store_subscription_id).
  'OrdersController.post': 'orders.upsert',
  'SubscriptionsController.put': 'subscriptions.upsert',
  'WebhookEndpointsController.deliveries': 'webhookEndpoints.listDeliveries',
  // One controller for the merchant's two portal resources (DESIGN §19).
  'PortalSessionsController.getSettings': 'portalSettings.get',
  'PortalSessionsController.updateSettings': 'portalSettings.update',
};

function lowerCamelCase(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1);
}

/** `operationIdFactory` for SwaggerModule.createDocument. */
export function operationIdFor(controllerKey: string, methodKey: string): string {
  return EXPLICIT_OPERATION_IDS[`${controllerKey}.${methodKey}`] ?? `${lowerCamelCase(controllerKey.replace(/Controller$/, ''))}.${methodKey}`;
}
