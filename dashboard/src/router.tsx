import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { SessionGate } from './shell/gate';
import { ModeGate, RedirectToMode } from './shell/layout';
import { NotFound, RouteError } from './shell/route-error';
import { Loading } from './ui/states';

/**
 * A page loaded when first visited (its own chunk): the first page a merchant opens downloads only
 * the shell and that page.
 */
function page(load: () => Promise<Record<string, unknown>>, name: string): RouteObject['lazy'] {
  return { Component: async () => (await load())[name] as ComponentType };
}

/** A page of the app: its own chunk, and its own error shown inside the layout (the page list stays). */
function at(path: string | undefined, load: () => Promise<Record<string, unknown>>, name: string): RouteObject {
  return path === undefined ? { index: true, lazy: page(load, name), errorElement: <RouteError /> } : { path, lazy: page(load, name), errorElement: <RouteError /> };
}

/** The route table, new each time: a router resolves lazy routes in place, so two routers can't share one. */
export function createRoutes(): RouteObject[] {
  return [
  at('/setup', () => import('./shell/setup-page'), 'SetupPage'),
  {
    path: '/',
    element: <SessionGate />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <Loading what="the dashboard" />,
    children: [
      { index: true, element: <RedirectToMode /> },
      {
        path: ':mode',
        element: <ModeGate />,
        errorElement: <RouteError />,
        children: [
          at(undefined, () => import('./pages/overview/overview-page'), 'OverviewPage'),
          at('products', () => import('./pages/products/products-page'), 'ProductsPage'),
          at('products/new', () => import('./pages/products/new-product-page'), 'NewProductPage'),
          at('products/:productId', () => import('./pages/products/product-page'), 'ProductPage'),
          at('grant-rules', () => import('./pages/grant-rules/grant-rules-page'), 'GrantRulesPage'),
          at('customers', () => import('./pages/customers/customers-page'), 'CustomersPage'),
          at('customers/:customerId', () => import('./pages/customers/customer-page'), 'CustomerPage'),
          at('entitlements', () => import('./pages/entitlements/entitlements-page'), 'EntitlementsPage'),
          at('entitlements/new', () => import('./pages/entitlements/grant-page'), 'GrantPage'),
          at('entitlements/:entitlementId', () => import('./pages/entitlements/entitlement-page'), 'EntitlementPage'),
          at('imports', () => import('./pages/imports/imports-page'), 'ImportsPage'),
          at('orders', () => import('./pages/orders/orders-page'), 'OrdersPage'),
          at('orders/:orderId', () => import('./pages/orders/order-page'), 'OrderPage'),
          at('subscriptions', () => import('./pages/subscriptions/subscriptions-page'), 'SubscriptionsPage'),
          at('subscriptions/:subscriptionId', () => import('./pages/subscriptions/subscription-page'), 'SubscriptionPage'),
          at('files', () => import('./pages/files/files-page'), 'FilesPage'),
          at('webhooks', () => import('./pages/webhooks/webhooks-page'), 'WebhooksPage'),
          at('webhooks/new', () => import('./pages/webhooks/new-endpoint-page'), 'NewEndpointPage'),
          at('webhooks/deliveries', () => import('./pages/webhooks/deliveries-page'), 'DeliveriesPage'),
          at('webhooks/:endpointId', () => import('./pages/webhooks/endpoint-page'), 'EndpointPage'),
          at('events', () => import('./pages/events/events-page'), 'EventsPage'),
          at('events/:eventId', () => import('./pages/events/event-page'), 'EventPage'),
          at('audit-log', () => import('./pages/audit-log/audit-log-page'), 'AuditLogPage'),
          at('billing', () => import('./pages/billing/billing-page'), 'BillingPage'),
          at('settings/api-keys', () => import('./pages/settings/api-keys-page'), 'ApiKeysPage'),
          at('settings/team', () => import('./pages/settings/team-page'), 'TeamPage'),
          at('settings/portal', () => import('./pages/settings/portal-page'), 'PortalPage'),
          { path: '*', element: <NotFound /> },
        ],
      },
    ],
  },
  ];
}

export function createRouter() {
  return createBrowserRouter(createRoutes(), { basename: '/dashboard' });
}
