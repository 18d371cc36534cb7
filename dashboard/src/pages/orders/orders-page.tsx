import { unwrapPage } from '../../api/client';
import { PAGE_SIZE, presentFilters, useListState, usePage } from '../../lib/list';
import { useApi } from '../../lib/mode';
import { FilterBar, SearchInput } from '../../ui/filters';
import { PageHeader } from '../../ui/page';
import { Pager } from '../../ui/pager';
import { Empty, ErrorMessage, Loading } from '../../ui/states';
import { OrdersTable } from './orders-table';

export function OrdersPage() {
  const api = useApi();
  const list = useListState(['search', 'customer_id', 'store_customer_id'] as const);
  const page = usePage('orders', list.filters, list.cursor, async (paging) => unwrapPage(await api.GET('/v1/orders', { params: { query: { ...paging, ...presentFilters(list.filters) } } })));
  const filtered = Object.values(list.filters).some(Boolean);
  return (
    <>
      <PageHeader title="Orders" description="Orders your store reported: each granted line item is an entitlement, refundable one by one." />
      <FilterBar label="Search orders">
        <SearchInput label="Search" placeholder="Order id or store order id" value={list.filters.search} onChange={(search) => list.setFilters({ search })} />
        <SearchInput label="Store customer id" placeholder="Exact store customer id" value={list.filters.store_customer_id} onChange={(store_customer_id) => list.setFilters({ store_customer_id })} />
      </FilterBar>
      {list.filters.customer_id && (
        <ul className="chips" aria-label="Other filters">
          <li>
            Customer: {list.filters.customer_id}
            <button type="button" className="chip-remove" aria-label="Remove the customer filter" onClick={() => list.setFilters({ customer_id: '' })}>
              ×
            </button>
          </li>
        </ul>
      )}
      {page.isPending && <Loading what="orders" />}
      <ErrorMessage error={page.error} />
      {page.data && page.data.data.length === 0 && (
        <Empty title={filtered ? 'No order matches.' : 'No orders yet.'}>{filtered ? null : <p>Your store reports orders with POST /v1/orders; they appear here.</p>}</Empty>
      )}
      {page.data && page.data.data.length > 0 && (
        <>
          <OrdersTable rows={page.data.data} caption="Orders" />
          <Pager
            noun="orders"
            shown={page.data.data.length}
            pageIndex={list.pageIndex}
            pageSize={PAGE_SIZE}
            total={page.data.total}
            nextLink={page.data.has_more && page.data.next_cursor ? list.nextLink(page.data.next_cursor) : null}
            previousLink={list.previousLink}
          />
        </>
      )}
    </>
  );
}
