import { unwrapPage, type Schemas } from '../../api/client';
import { presentFilters, useListState, usePage } from '../../lib/list';
import { useApi } from '../../lib/mode';
import { FilterBar, FilterSelect, SearchInput } from '../../ui/filters';
import { PageHeader } from '../../ui/page';
import { ListView } from '../../ui/list-view';
import { Empty } from '../../ui/states';
import { SubscriptionsTable } from './subscriptions-table';

type Status = Schemas['SubscriptionResponseDto']['status'];

const STATUSES = [
  { value: '', label: 'Any status' },
  { value: 'active', label: 'Active' },
  { value: 'trialing', label: 'Trialing' },
  { value: 'past_due', label: 'Past due' },
  { value: 'paused', label: 'Paused' },
  { value: 'canceled', label: 'Canceled' },
];

export function SubscriptionsPage() {
  const api = useApi();
  const list = useListState(['search', 'status', 'customer_id', 'store_customer_id'] as const);
  const page = usePage('subscriptions', list, async (paging) => {
    const filters = presentFilters(list.filters);
    return unwrapPage(await api.GET('/v1/subscriptions', { params: { query: { ...paging, ...filters, status: filters.status as Status | undefined } } }));
  });
  const filtered = Object.values(list.filters).some(Boolean);
  return (
    <>
      <PageHeader title="Subscriptions" description="Store subscriptions and the access each keeps: active while paid, suspended while paused, ended when canceled." />
      <FilterBar label="Search subscriptions">
        <SearchInput label="Search" placeholder="Subscription id or store subscription id" value={list.filters.search} onChange={(search) => list.setFilters({ search })} />
        <SearchInput label="Store customer id" placeholder="The start of a store customer id" value={list.filters.store_customer_id} onChange={(store_customer_id) => list.setFilters({ store_customer_id })} />
        <FilterSelect label="Status" value={list.filters.status} onChange={(status) => list.setFilters({ status })} options={STATUSES} />
      </FilterBar>
      <ListView page={page} list={list} noun="subscriptions" empty={<Empty title={filtered ? 'No subscription matches.' : 'No subscriptions yet.'}>{filtered ? null : <p>Your store reports subscriptions with PUT /v1/subscriptions/store/…; they appear here.</p>}</Empty>}>
        {(rows) => (
          <SubscriptionsTable rows={rows} caption="Subscriptions" />
        )}
      </ListView>
    </>
  );
}
