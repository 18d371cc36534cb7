import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { Empty, ErrorMessage, Loading, Section } from '../components';

type Lookup = { by: 'customer_id' | 'store_customer_id'; value: string };

/** A customer's store orders (refundable) and subscriptions, as the store reported them (DESIGN §10). */
export function OrdersPage() {
  const queryClient = useQueryClient();
  const [lookup, setLookup] = useState<Lookup | null>(null);
  const filter = () => (lookup?.by === 'customer_id' ? { customer_id: lookup.value } : { store_customer_id: lookup?.value ?? '' });
  const orders = useQuery({
    queryKey: ['orders', lookup],
    enabled: lookup !== null,
    queryFn: async () => unwrap(await api.GET('/v1/orders', { params: { query: { ...filter(), limit: 100 } } })),
  });
  const subscriptions = useQuery({
    queryKey: ['subscriptions', lookup],
    enabled: lookup !== null,
    queryFn: async () => unwrap(await api.GET('/v1/subscriptions', { params: { query: { ...filter(), limit: 100 } } })),
  });
  const refund = useMutation({
    mutationFn: async (orderId: string) =>
      unwrap(await api.POST('/v1/orders/{order_id}/refund', { params: { path: { order_id: orderId } }, body: { reason: 'refunded from the dashboard' } })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['orders'] }),
  });
  return (
    <>
      <h1>Orders and subscriptions</h1>
      <form
        aria-label="Find a customer's orders and subscriptions"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          setLookup({ by: String(form.get('by')) as Lookup['by'], value: String(form.get('value')).trim() });
        }}
      >
        <label>
          Find by
          <select name="by" defaultValue="store_customer_id">
            <option value="store_customer_id">store customer id</option>
            <option value="customer_id">customer id (cus_…)</option>
          </select>
        </label>
        <label>
          Customer
          <input name="value" required />
        </label>
        <button type="submit">Find</button>
      </form>
      {lookup && (
        <>
          <Section title="Orders">
            {orders.isPending && <Loading what="orders" />}
            <ErrorMessage error={orders.error ?? refund.error} />
            {orders.data?.length === 0 && <Empty>No orders.</Empty>}
            {orders.data && orders.data.length > 0 && (
              <table>
                <thead>
                  <tr>
                    <th scope="col">Store order</th>
                    <th scope="col">Status</th>
                    <th scope="col">Line items</th>
                    <th scope="col">Placed</th>
                    <th scope="col">Refund</th>
                  </tr>
                </thead>
                <tbody>
                  {orders.data.map((order) => (
                    <tr key={order.id}>
                      <td>
                        <code>{order.store_order_id}</code>
                      </td>
                      <td>{order.status}</td>
                      <td>{order.line_items.map((item) => `${item.store_line_item_id}: ${item.status}`).join(', ')}</td>
                      <td>{order.placed_at ?? '—'}</td>
                      <td>
                        {order.status !== 'refunded' && (
                          <button type="button" disabled={refund.isPending} onClick={() => refund.mutate(order.id)}>
                            Refund {order.store_order_id}
                          </button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </Section>
          <Section title="Subscriptions">
            {subscriptions.isPending && <Loading what="subscriptions" />}
            <ErrorMessage error={subscriptions.error} />
            {subscriptions.data?.length === 0 && <Empty>No subscriptions.</Empty>}
            {subscriptions.data && subscriptions.data.length > 0 && (
              <table>
                <thead>
                  <tr>
                    <th scope="col">Store subscription</th>
                    <th scope="col">Status</th>
                    <th scope="col">Period ends</th>
                    <th scope="col">Entitlement</th>
                  </tr>
                </thead>
                <tbody>
                  {subscriptions.data.map((subscription) => (
                    <tr key={subscription.id}>
                      <td>
                        <code>{subscription.store_subscription_id}</code>
                      </td>
                      <td>
                        {subscription.status}
                        {subscription.cancel_at_period_end ? ' (cancels at period end)' : ''}
                      </td>
                      <td>{subscription.current_period_end ?? '—'}</td>
                      <td>{subscription.entitlement_status ?? 'none'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </Section>
        </>
      )}
    </>
  );
}
