import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { unwrap, type Schemas } from '../../api/client';
import { formatCount, humanize } from '../../lib/format';
import { useApi, useMode, useModePath } from '../../lib/mode';
import { useCan } from '../../lib/permissions';
import { useWrite } from '../../lib/write';
import { Badge } from '../../ui/badge';
import { ConfirmButton } from '../../ui/confirm';
import { Id } from '../../ui/copy';
import { JsonView } from '../../ui/json';
import { ProductLink } from '../../ui/names';
import { Facts, PageHeader, Section } from '../../ui/page';
import { ErrorMessage, Loading } from '../../ui/states';
import { Table } from '../../ui/table';
import { Time } from '../../ui/time';

type LineItem = Schemas['OrderLineItemResponseDto'];

/** One order: its line items, each refundable on its own (its entitlement is revoked), or all at once. */
export function OrderPage() {
  const can = useCan();
  const { orderId = '' } = useParams();
  const api = useApi();
  const mode = useMode();
  const path = useModePath();
  const order = useQuery({
    queryKey: [mode, 'orders', 'one', orderId],
    queryFn: async () => unwrap(await api.GET('/v1/orders/{order_id}', { params: { path: { order_id: orderId } } })),
  });
  const refund = useWrite({
    mutationFn: async ({ lineItems, reason }: { lineItems?: string[]; reason: string }) =>
      unwrap(await api.POST('/v1/orders/{order_id}/refund', { params: { path: { order_id: orderId } }, body: { ...(lineItems ? { store_line_item_ids: lineItems } : {}), ...(reason ? { reason } : {}) } })),
    invalidates: [['orders'], ['entitlements'], ['events'], ['customers']],
  });
  if (order.isPending) return <Loading what="the order" />;
  if (order.error || !order.data) return <ErrorMessage error={order.error} />;
  const data = order.data;
  const refundable = data.line_items.filter((item) => item.status === 'granted');
  return (
    <>
      <PageHeader
        back={{ to: path('orders'), label: 'Orders' }}
        title={
          <>
            Order {data.store_order_id} <Badge status={data.status} />
          </>
        }
        actions={
          refundable.length > 0 && (
            can('entitlements:write') && (
              <ConfirmButton label="Refund the order" title={`Refund all of order ${data.store_order_id}?`} confirmLabel="Refund everything" reasonLabel="Reason (default: refunded)" onConfirm={(reason) => refund.runAsync({ reason })}>
                <p>
                  The {refundable.length === 1 ? 'entitlement' : `${refundable.length} entitlements`} this order granted {refundable.length === 1 ? 'is' : 'are'} revoked now. This can’t be undone.
                </p>
              </ConfirmButton>
            )
          )
        }
      />
      <Section title="Details">
        <Facts
          items={[
            ['Order id', <Id key="id" value={data.id} />],
            ['Customer', <Link key="customer" to={path(`customers/${data.customer_id}`)}>{data.store_customer_id}</Link>],
            ['Placed', <Time key="placed" value={data.placed_at} empty="Not given" />],
            ['First reported', <Time key="created" value={data.created_at} />],
            ['Last change', <Time key="updated" value={data.updated_at} />],
          ]}
        />
        {Object.keys(data.metadata ?? {}).length > 0 && <JsonView label="Metadata" value={data.metadata} />}
      </Section>
      <Section title="Line items">
        <Table<LineItem>
          caption={`Line items of order ${data.store_order_id}`}
          rows={data.line_items}
          rowKey={(item) => item.store_line_item_id}
          columns={[
            { header: 'Line item', rowHeader: true, cell: (item) => <code>{item.store_line_item_id}</code> },
            { header: 'Product', cell: (item) => (item.product_id ? <ProductLink id={item.product_id} name={item.product_name} /> : <span className="muted">No product matched</span>) },
            { header: 'Quantity', cell: (item) => formatCount(item.quantity) },
            {
              header: 'Status',
              cell: (item) => (
                <>
                  <Badge status={item.status} />
                  {item.skipped_reason && <small className="muted block">{humanize(item.skipped_reason)}</small>}
                </>
              ),
            },
            { header: 'Entitlement', cell: (item) => (item.entitlement_id ? <Link to={path(`entitlements/${item.entitlement_id}`)}>View access</Link> : <span className="muted">None</span>) },
            {
              header: 'Refund',
              cell: (item) =>
                item.status === 'granted' ? (
                  can('entitlements:write') && (
                    <ConfirmButton
                      label="Refund"
                      ariaLabel={`Refund line item ${item.store_line_item_id}`}
                      title={`Refund line item ${item.store_line_item_id}?`}
                      confirmLabel="Refund line item"
                      reasonLabel="Reason (default: refunded)"
                      onConfirm={(reason) => refund.runAsync({ lineItems: [item.store_line_item_id], reason })}
                    >
                      <p>Its entitlement{item.product_name ? ` to ${item.product_name}` : ''} is revoked now. The order’s other line items keep theirs.</p>
                    </ConfirmButton>
                  )
                ) : (
                  <span className="muted">—</span>
                ),
            },
          ]}
        />
      </Section>
    </>
  );
}
