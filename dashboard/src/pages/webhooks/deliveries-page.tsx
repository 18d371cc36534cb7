import { useQuery } from '@tanstack/react-query';
import { unwrapPage } from '../../api/client';
import { presentFilters, useListState, usePage } from '../../lib/list';
import { useApi, useMode, useModePath } from '../../lib/mode';
import { FilterBar, FilterSelect } from '../../ui/filters';
import { ListView } from '../../ui/list-view';
import { PageHeader } from '../../ui/page';
import { Empty } from '../../ui/states';
import { AttemptsTable } from './attempts-table';

const OUTCOMES = [
  { value: '', label: 'Any outcome' },
  { value: 'failed', label: 'Failed' },
  { value: 'succeeded', label: 'Succeeded' },
];

/** Every delivery attempt to every endpoint (GET /v1/webhook-deliveries), filterable to one endpoint and to failures. */
export function DeliveriesPage() {
  const api = useApi();
  const mode = useMode();
  const path = useModePath();
  const list = useListState(['status', 'endpoint_id'] as const);
  // A merchant has a few endpoints: one page names them all for the filter.
  const endpoints = useQuery({
    queryKey: [mode, 'webhook-endpoints', 'choices'],
    queryFn: async () => unwrapPage(await api.GET('/v1/webhook-endpoints', { params: { query: { limit: 100 } } })).data,
  });
  const page = usePage('webhook-deliveries', list, async (paging) => {
    const filters = presentFilters(list.filters);
    return unwrapPage(await api.GET('/v1/webhook-deliveries', { params: { query: { ...paging, ...filters, status: filters.status as 'failed' | 'succeeded' | undefined } } }));
  });
  const filtered = Object.values(list.filters).some(Boolean);
  return (
    <>
      <PageHeader back={{ to: path('webhooks'), label: 'Webhooks' }} title="Deliveries" description="Every attempt to send an event to one of your endpoints, newest first." />
      <FilterBar label="Filter deliveries">
        <FilterSelect label="Outcome" value={list.filters.status} onChange={(status) => list.setFilters({ status })} options={OUTCOMES} />
        <FilterSelect
          label="Endpoint"
          value={list.filters.endpoint_id}
          onChange={(endpoint_id) => list.setFilters({ endpoint_id })}
          options={[{ value: '', label: 'Every endpoint' }, ...(endpoints.data ?? []).map((endpoint) => ({ value: endpoint.id, label: endpoint.url }))]}
        />
      </FilterBar>
      <ListView page={page} list={list} noun="deliveries" empty={<Empty title={filtered ? 'No delivery matches.' : 'Nothing sent yet.'}>{null}</Empty>}>
        {(rows) => <AttemptsTable rows={rows} caption="Deliveries" />}
      </ListView>
    </>
  );
}
