import { unwrapPage } from '../../api/client';
import { presentFilters, useListState, usePage } from '../../lib/list';
import { useApi } from '../../lib/mode';
import { FilterBar, SearchInput } from '../../ui/filters';
import { PageHeader } from '../../ui/page';
import { FilterChips, ListView } from '../../ui/list-view';
import { Empty } from '../../ui/states';
import { OrdersTable } from './orders-table';

export function OrdersPage() {
  const api = useApi();
  const list = useListState(['search', 'customer_id', 'store_customer_id'] as const);
  const page = usePage('orders', list, async (paging) => unwrapPage(await api.GET('/v1/orders', { params: { query: { ...paging, ...presentFilters(list.filters) } } })));
  const filtered = Object.values(list.filters).some(Boolean);
  return (
    <>
      <PageHeader title="Orders" description="Orders your store reported: each granted line item is an entitlement, refundable one by one." />
      <FilterBar label="Search orders">
        <SearchInput label="Search" placeholder="Order id or store order id" value={list.filters.search} onChange={(search) => list.setFilters({ search })} />
        <SearchInput label="Store customer id" placeholder="The start of a store customer id" value={list.filters.store_customer_id} onChange={(store_customer_id) => list.setFilters({ store_customer_id })} />
      </FilterBar>
      <FilterChips chips={[list.filters.customer_id ? { what: 'customer', label: `Customer: ${list.filters.customer_id}`, onRemove: () => list.setFilters({ customer_id: '' }) } : null]} />
      <ListView page={page} list={list} noun="orders" empty={<Empty title={filtered ? 'No order matches.' : 'No orders yet.'}>{filtered ? null : <p>Your store reports orders with POST /v1/orders; they appear here.</p>}</Empty>}>
        {(rows) => (
          <OrdersTable rows={rows} caption="Orders" />
        )}
      </ListView>
    </>
  );
}
