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

/** The route table, new each time: a router resolves lazy routes in place, so two routers can't share one. */
export function createRoutes(): RouteObject[] {
  return [
  { path: '/setup', lazy: page(() => import('./shell/setup-page'), 'SetupPage') },
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
          { index: true, lazy: page(() => import('./pages/overview/overview-page'), 'OverviewPage') },
          { path: 'products', lazy: page(() => import('./pages/products/products-page'), 'ProductsPage') },
          { path: 'products/new', lazy: page(() => import('./pages/products/new-product-page'), 'NewProductPage') },
          { path: 'products/:productId', lazy: page(() => import('./pages/products/product-page'), 'ProductPage') },
          { path: 'customers', lazy: page(() => import('./pages/customers/customers-page'), 'CustomersPage') },
          { path: 'customers/:customerId', lazy: page(() => import('./pages/customers/customer-page'), 'CustomerPage') },
          { path: 'entitlements', lazy: page(() => import('./pages/entitlements/entitlements-page'), 'EntitlementsPage') },
          { path: 'entitlements/new', lazy: page(() => import('./pages/entitlements/grant-page'), 'GrantPage') },
          { path: 'entitlements/:entitlementId', lazy: page(() => import('./pages/entitlements/entitlement-page'), 'EntitlementPage') },
          { path: 'orders', lazy: page(() => import('./pages/orders/orders-page'), 'OrdersPage') },
          { path: 'orders/:orderId', lazy: page(() => import('./pages/orders/order-page'), 'OrderPage') },
          { path: 'subscriptions', lazy: page(() => import('./pages/subscriptions/subscriptions-page'), 'SubscriptionsPage') },
          { path: 'subscriptions/:subscriptionId', lazy: page(() => import('./pages/subscriptions/subscription-page'), 'SubscriptionPage') },
          { path: 'files', lazy: page(() => import('./pages/files/files-page'), 'FilesPage') },
          { path: 'webhooks', lazy: page(() => import('./pages/webhooks/webhooks-page'), 'WebhooksPage') },
          { path: 'webhooks/new', lazy: page(() => import('./pages/webhooks/new-endpoint-page'), 'NewEndpointPage') },
          { path: 'webhooks/:endpointId', lazy: page(() => import('./pages/webhooks/endpoint-page'), 'EndpointPage') },
          { path: 'events', lazy: page(() => import('./pages/events/events-page'), 'EventsPage') },
          { path: 'events/:eventId', lazy: page(() => import('./pages/events/event-page'), 'EventPage') },
          { path: 'settings/api-keys', lazy: page(() => import('./pages/settings/api-keys-page'), 'ApiKeysPage') },
          { path: 'settings/team', lazy: page(() => import('./pages/settings/team-page'), 'TeamPage') },
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
