import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { Empty, ErrorMessage, Loading, Section } from '../components';

type Action = 'revoke' | 'suspend' | 'reactivate';

export function EntitlementsPage() {
  const queryClient = useQueryClient();
  const [customer, setCustomer] = useState('');
  const products = useQuery({ queryKey: ['products'], queryFn: async () => unwrap(await api.GET('/v1/products', { params: { query: { limit: 100 } } })) });
  const entitlements = useQuery({
    queryKey: ['entitlements', customer],
    enabled: customer !== '',
    queryFn: async () => unwrap(await api.GET('/v1/entitlements', { params: { query: { store_customer_id: customer, limit: 100 } } })),
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['entitlements'] });
  const grant = useMutation({
    mutationFn: async (body: { store_customer_id: string; product_id: string }) => unwrap(await api.POST('/v1/entitlements', { body })),
    onSuccess: (_, body) => {
      setCustomer(body.store_customer_id);
      refresh();
    },
  });
  const act = useMutation({
    mutationFn: async ({ id, action, reason }: { id: string; action: Action; reason: string }) => {
      const path = { params: { path: { entitlement_id: id } } };
      if (action === 'revoke') return unwrap(await api.POST('/v1/entitlements/{entitlement_id}/revoke', { ...path, body: { reason: reason || undefined } }));
      if (action === 'suspend') return unwrap(await api.POST('/v1/entitlements/{entitlement_id}/suspend', { ...path, body: { reason: reason || undefined } }));
      return unwrap(await api.POST('/v1/entitlements/{entitlement_id}/reactivate', { ...path, body: {} }));
    },
    onSuccess: refresh,
  });
  const submitGrant = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    grant.mutate({ store_customer_id: String(form.get('store_customer_id')), product_id: String(form.get('product_id')) });
  };
  const active = (products.data ?? []).filter((product) => product.status !== 'archived');
  return (
    <>
      <h1>Entitlements</h1>
      <Section title="Grant a product">
        <form onSubmit={submitGrant} aria-label="Grant a product">
          <label>
            Store customer id
            <input name="store_customer_id" required maxLength={255} />
          </label>
          <label>
            Product
            <select name="product_id" required>
              {active.map((product) => (
                <option key={product.id} value={product.id}>
                  {product.name}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={active.length === 0}>
            Grant
          </button>
        </form>
        {products.data && active.length === 0 && <Empty>Create a product first.</Empty>}
        <ErrorMessage error={grant.error} />
      </Section>
      <Section title="A customer's entitlements">
        <form
          aria-label="Find entitlements"
          onSubmit={(event) => {
            event.preventDefault();
            setCustomer(String(new FormData(event.currentTarget).get('customer')));
          }}
        >
          <label>
            Store customer id
            <input name="customer" defaultValue={customer} required />
          </label>
          <button type="submit">Show</button>
        </form>
        <label>
          Reason (for revoke and suspend)
          <input id="reason" name="reason" maxLength={500} />
        </label>
        {entitlements.isFetching && <Loading what="entitlements" />}
        <ErrorMessage error={entitlements.error ?? act.error} />
        {entitlements.data?.length === 0 && <Empty>This customer has no entitlements.</Empty>}
        {entitlements.data && entitlements.data.length > 0 && (
          <table>
            <thead>
              <tr>
                <th scope="col">Id</th>
                <th scope="col">Product</th>
                <th scope="col">Status</th>
                <th scope="col">Source</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {entitlements.data.map((entitlement) => (
                <tr key={entitlement.id}>
                  <td>
                    <code>{entitlement.id}</code>
                  </td>
                  <td>{products.data?.find((product) => product.id === entitlement.product_id)?.name ?? entitlement.product_id}</td>
                  <td>{entitlement.status}</td>
                  <td>{entitlement.source}</td>
                  <td>
                    {(['revoke', 'suspend', 'reactivate'] as const).map((action) => (
                      <button
                        key={action}
                        type="button"
                        className="secondary"
                        aria-label={`${action} ${entitlement.id}`}
                        onClick={() => act.mutate({ id: entitlement.id, action, reason: (document.getElementById('reason') as HTMLInputElement).value })}
                      >
                        {action[0].toUpperCase() + action.slice(1)}
                      </button>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
    </>
  );
}
