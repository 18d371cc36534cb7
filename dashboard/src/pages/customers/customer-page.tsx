import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { idempotent, unwrap, unwrapPage } from '../../api/client';
import { formatBytes } from '../../lib/format';
import { useApi, useMode, useModePath } from '../../lib/mode';
import { useCan } from '../../lib/permissions';
import { useWrite } from '../../lib/write';
import { Id, Secret } from '../../ui/copy';
import { ProductLink } from '../../ui/names';
import { Facts, PageHeader, Section } from '../../ui/page';
import { Empty, ErrorMessage, Loading } from '../../ui/states';
import { Table } from '../../ui/table';
import { Time } from '../../ui/time';
import { EntitlementsTable } from '../entitlements/entitlements-table';
import { OrdersTable } from '../orders/orders-table';
import { SubscriptionsTable } from '../subscriptions/subscriptions-table';
import { LicenseKeys } from '../licenses/license-keys';

const SHOWN = 10;

/** One customer: what they hold, what they bought, their subscriptions and what they can download. */
export function CustomerPage() {
  const can = useCan();
  const { customerId = '' } = useParams();
  const api = useApi();
  const mode = useMode();
  const path = useModePath();
  const customer = useQuery({
    queryKey: [mode, 'customers', 'one', customerId],
    queryFn: async () => unwrap(await api.GET('/v1/customers/{customer_id}', { params: { path: { customer_id: customerId } } })),
  });
  const byCustomer = { customer_id: customerId, limit: SHOWN };
  const entitlements = useQuery({
    queryKey: [mode, 'entitlements', 'list', { customer_id: customerId }, 'recent'],
    queryFn: async () => unwrapPage(await api.GET('/v1/entitlements', { params: { query: byCustomer } })),
  });
  const orders = useQuery({
    queryKey: [mode, 'orders', 'list', { customer_id: customerId }, 'recent'],
    queryFn: async () => unwrapPage(await api.GET('/v1/orders', { params: { query: byCustomer } })),
  });
  const subscriptions = useQuery({
    queryKey: [mode, 'subscriptions', 'list', { customer_id: customerId }, 'recent'],
    queryFn: async () => unwrapPage(await api.GET('/v1/subscriptions', { params: { query: byCustomer } })),
  });
  const downloads = useQuery({
    queryKey: [mode, 'customers', 'downloads', customerId],
    queryFn: async () => unwrapPage(await api.GET('/v1/customers/{customer_id}/downloads', { params: { path: { customer_id: customerId }, query: { limit: 100 } } })),
  });
  // DESIGN §19: a one-time link to the customer's portal, for support to send (shown once, valid an hour).
  const portalLink = useWrite({
    mutationFn: async (id: string, idempotencyKey: string) =>
      unwrap(await api.POST('/v1/portal-sessions', { body: { customer_id: id }, ...idempotent(idempotencyKey) })),
  });
  if (customer.isPending) return <Loading what="the customer" />;
  if (customer.error || !customer.data) return <ErrorMessage error={customer.error} />;
  const data = customer.data;
  const all = (list: string, total?: number) => (
    <Link className="button secondary small" to={`${path(list)}?customer_id=${data.id}`}>
      All{total === undefined ? '' : ` ${total}`}
    </Link>
  );
  return (
    <>
      <PageHeader
        back={{ to: path('customers'), label: 'Customers' }}
        title={data.store_customer_id}
        actions={
          <>
            {can('portal:write') && (
              <button type="button" className="secondary" disabled={portalLink.isPending} onClick={() => portalLink.run(data.id)}>
                Portal link
              </button>
            )}
            {can('entitlements:grant') && (
              <Link className="button primary" to={`${path('entitlements/new')}?store_customer_id=${encodeURIComponent(data.store_customer_id)}`}>
                Grant a product
              </Link>
            )}
          </>
        }
      />
      <ErrorMessage error={portalLink.error} />
      {portalLink.data && (
        <Section title="Portal link">
          <p>Send this link to the customer: it opens their purchases, downloads and license keys once, within the hour.</p>
          <Secret value={portalLink.data.url} what="portal link" testId="portal-link" />
        </Section>
      )}
      <Section title="Details">
        <Facts
          items={[
            ['Customer id', <Id key="id" value={data.id} />],
            ['Store customer id', data.store_customer_id],
            ['Customer since', <Time key="since" value={data.created_at} />],
          ]}
        />
      </Section>
      <Section title="Entitlements" actions={entitlements.data && entitlements.data.has_more ? all('entitlements', entitlements.data.total) : undefined}>
        {entitlements.isPending && <Loading what="entitlements" />}
        <ErrorMessage error={entitlements.error} />
        {entitlements.data?.data.length === 0 && <Empty title="No entitlements." />}
        {entitlements.data && entitlements.data.data.length > 0 && <EntitlementsTable rows={entitlements.data.data} caption={`Entitlements of ${data.store_customer_id}`} without="customer" />}
      </Section>
      <Section title="Orders" actions={orders.data?.has_more ? all('orders', orders.data.total) : undefined}>
        {orders.isPending && <Loading what="orders" />}
        <ErrorMessage error={orders.error} />
        {orders.data?.data.length === 0 && <Empty title="No orders." />}
        {orders.data && orders.data.data.length > 0 && <OrdersTable rows={orders.data.data} caption={`Orders of ${data.store_customer_id}`} withCustomer={false} />}
      </Section>
      <Section title="Subscriptions" actions={subscriptions.data?.has_more ? all('subscriptions', subscriptions.data.total) : undefined}>
        {subscriptions.isPending && <Loading what="subscriptions" />}
        <ErrorMessage error={subscriptions.error} />
        {subscriptions.data?.data.length === 0 && <Empty title="No subscriptions." />}
        {subscriptions.data && subscriptions.data.data.length > 0 && <SubscriptionsTable rows={subscriptions.data.data} caption={`Subscriptions of ${data.store_customer_id}`} withCustomer={false} />}
      </Section>
      <Section title="License keys">
        <LicenseKeys filter={{ customer_id: data.id }} />
      </Section>
      <Section title="Downloads available">
        {downloads.isPending && <Loading what="downloads" />}
        <ErrorMessage error={downloads.error} />
        {downloads.data?.data.length === 0 && <Empty title="Nothing to download.">No active entitlement delivers an uploaded file.</Empty>}
        {downloads.data && downloads.data.data.length > 0 && (
          <Table
            caption={`Files ${data.store_customer_id} can download`}
            rows={downloads.data.data}
            rowKey={(group) => group.entitlement_id}
            columns={[
              { header: 'Product', rowHeader: true, cell: (group) => <ProductLink id={group.product_id} name={group.product_name} /> },
              { header: 'Files', cell: (group) => group.files.map((file) => `${file.file_name} (${formatBytes(file.file_size)})`).join(', ') },
              { header: 'Entitlement', cell: (group) => <Link to={path(`entitlements/${group.entitlement_id}`)}>Open</Link> },
            ]}
          />
        )}
      </Section>
    </>
  );
}
