import Stripe from 'stripe';

/**
 * A store adapter: Stripe's webhooks in, this API's orders and subscriptions out. Each product's
 * store_product_id is its Stripe product id (prod_…). Mount `handle` on your webhook route with the
 * raw body and the `Stripe-Signature` header; answer 400 when it throws, 200 otherwise.
 */
const STATUSES: Record<string, string> = { active: 'active', trialing: 'trialing', past_due: 'past_due', unpaid: 'past_due', paused: 'paused', canceled: 'canceled', incomplete_expired: 'canceled' };

export function stripeStoreAdapter(options: { stripe: Stripe; webhookSecret: string; apiUrl: string; apiKey: string }) {
  const api = async (method: string, route: string, body: unknown, idempotencyKey?: string) => {
    const headers: Record<string, string> = { Authorization: `Bearer ${options.apiKey}`, 'Content-Type': 'application/json' };
    if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
    const response = await fetch(`${options.apiUrl}${route}`, { method, headers, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`); // Stripe retries the webhook
    return response.json() as Promise<{ data: unknown }>;
  };
  return async function handle(rawBody: string | Buffer, signature: string): Promise<{ data: unknown } | null> {
    const event = options.stripe.webhooks.constructEvent(rawBody, signature, options.webhookSecret); // throws unless Stripe signed it
    const at = new Date(event.created * 1000).toISOString();
    if (event.type === 'checkout.session.completed') {
      const session = event.data.object;
      if (session.mode !== 'payment' || session.payment_status !== 'paid') return null; // subscriptions come as their own events
      const items = await options.stripe.checkout.sessions.listLineItems(session.id, { limit: 100 });
      const lineItems = items.data.map((item) => ({ store_line_item_id: item.id, store_product_id: String(item.price?.product), quantity: item.quantity ?? 1 }));
      const customer = typeof session.customer === 'string' ? session.customer : (session.customer_details?.email ?? session.id);
      return api('POST', '/v1/orders', { store_order_id: session.id, store_customer_id: customer, placed_at: at, line_items: lineItems }, event.id);
    }
    if (event.type === 'customer.subscription.updated') {
      const subscription = event.data.object;
      const item = subscription.items.data[0];
      if (!STATUSES[subscription.status] || !item) return null; // incomplete: not paid yet
      return api('PUT', `/v1/subscriptions/store/${subscription.id}`, {
        store_customer_id: String(subscription.customer), store_product_id: String(item.price.product), status: STATUSES[subscription.status],
        current_period_end: new Date(item.current_period_end * 1000).toISOString(), cancel_at_period_end: subscription.cancel_at_period_end, store_updated_at: at,
      });
    }
    return null;
  };
}
