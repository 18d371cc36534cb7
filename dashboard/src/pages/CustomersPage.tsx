import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { Empty, ErrorMessage, formatBytes, Loading, Section } from '../components';

type Lookup = { by: 'customer_id' | 'store_customer_id'; value: string };

export function CustomersPage() {
  const [lookup, setLookup] = useState<Lookup | null>(null);
  const entitlements = useQuery({
    queryKey: ['customer-entitlements', lookup],
    enabled: lookup !== null,
    queryFn: async () =>
      lookup?.by === 'customer_id'
        ? unwrap(await api.GET('/v1/customers/{customer_id}/entitlements', { params: { path: { customer_id: lookup.value } } }))
        : // The list by store id also names the customer's own id, which the downloads route needs.
          unwrap(await api.GET('/v1/entitlements', { params: { query: { store_customer_id: lookup?.value ?? '', limit: 100 } } })),
  });
  const first = entitlements.data?.[0];
  const customerId: string | undefined = lookup?.by === 'customer_id' ? lookup.value : first && 'customer_id' in first ? String(first.customer_id) : undefined;
  const downloads = useQuery({
    queryKey: ['customer-downloads', customerId],
    enabled: Boolean(customerId),
    queryFn: async () => unwrap(await api.GET('/v1/customers/{customer_id}/downloads', { params: { path: { customer_id: customerId ?? '' } } })),
  });
  return (
    <>
      <h1>Customers</h1>
      <form
        aria-label="Find a customer"
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
          Id
          <input name="value" required />
        </label>
        <button type="submit">Find</button>
      </form>
      {lookup && (
        <>
          <Section title="Entitlements">
            {entitlements.isPending && <Loading what="entitlements" />}
            <ErrorMessage error={entitlements.error} />
            {entitlements.data?.length === 0 && <Empty>No entitlements.</Empty>}
            {entitlements.data && entitlements.data.length > 0 && (
              <table>
                <thead>
                  <tr>
                    <th scope="col">Entitlement</th>
                    <th scope="col">Product</th>
                    <th scope="col">Status</th>
                    <th scope="col">Source</th>
                    <th scope="col">Granted</th>
                  </tr>
                </thead>
                <tbody>
                  {entitlements.data.map((entitlement) => (
                    <tr key={entitlement.id}>
                      <td>
                        <code>{entitlement.id}</code>
                      </td>
                      <td>{entitlement.product_id}</td>
                      <td>{entitlement.status}</td>
                      <td>{entitlement.source}</td>
                      <td>{entitlement.granted_at}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </Section>
          <Section title="Downloads">
            {customerId && downloads.isPending && <Loading what="downloads" />}
            <ErrorMessage error={downloads.error} />
            {downloads.data?.length === 0 && <Empty>Nothing to download: no active entitlement delivers a confirmed file.</Empty>}
            {downloads.data && downloads.data.length > 0 && (
              <table>
                <thead>
                  <tr>
                    <th scope="col">Product</th>
                    <th scope="col">Entitlement</th>
                    <th scope="col">Files</th>
                  </tr>
                </thead>
                <tbody>
                  {downloads.data.map((group) => (
                    <tr key={group.entitlement_id}>
                      <td>{group.product_name}</td>
                      <td>
                        <code>{group.entitlement_id}</code>
                      </td>
                      <td>{group.files.map((file) => `${file.file_name} (${formatBytes(file.file_size)})`).join(', ')}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {!customerId && <Empty>No downloads: the customer has no entitlements.</Empty>}
          </Section>
        </>
      )}
    </>
  );
}
