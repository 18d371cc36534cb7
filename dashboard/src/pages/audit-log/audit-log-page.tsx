import { Link } from 'react-router';
import { unwrapPage, type Schemas } from '../../api/client';
import { presentFilters, useListState, usePage } from '../../lib/list';
import { useApi, useModePath } from '../../lib/mode';
import { ExportCsvButton } from '../../ui/export-csv-button';
import { DateFilter, FilterBar, SearchInput } from '../../ui/filters';
import { PageHeader } from '../../ui/page';
import { ListView } from '../../ui/list-view';
import { Empty } from '../../ui/states';
import { Table } from '../../ui/table';
import { Time } from '../../ui/time';
import { actorText } from './actor-text';

type AuditEntry = Schemas['AuditEntryResponseDto'];

/** The dashboard page of each object type that has one; other objects show their id. */
const OBJECT_PAGES: Readonly<Record<string, string>> = {
  entitlement: 'entitlements',
  product: 'products',
  customer: 'customers',
  order: 'orders',
  subscription: 'subscriptions',
  webhook_endpoint: 'webhooks',
  event: 'events',
};

/** The object as a link to its page when it has one. */
export function ObjectLink({ object }: { object: AuditEntry['object'] }) {
  const path = useModePath();
  if (object.id === null) return <span>{object.type}</span>;
  const page = OBJECT_PAGES[object.type];
  return page ? <Link to={path(`${page}/${object.id}`)}>{object.id}</Link> : <code>{object.id}</code>;
}

export function AuditLogPage() {
  const api = useApi();
  const list = useListState(['actor_id', 'object_id', 'action', 'created_after', 'created_before'] as const);
  const page = usePage('audit-log', list, async (paging) => unwrapPage(await api.GET('/v1/audit-log', { params: { query: { ...paging, ...presentFilters(list.filters) } } })));
  const filtered = Object.values(list.filters).some(Boolean);
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Who did what: every change, sign-in and team change, recorded with the change itself. This mode's and the account's."
        actions={<ExportCsvButton path="/v1/audit-log" query={presentFilters(list.filters)} fileName="audit-log.csv" />}
      />
      <FilterBar label="Filter the audit log">
        <SearchInput label="Actor" placeholder="user_…, key_…, admin, cli" value={list.filters.actor_id} onChange={(actor_id) => list.setFilters({ actor_id })} />
        <SearchInput label="Object" placeholder="An id: ent_…, prod_…, user_…" value={list.filters.object_id} onChange={(object_id) => list.setFilters({ object_id })} />
        <SearchInput label="Action" placeholder="entitlements.revoke" value={list.filters.action} onChange={(action) => list.setFilters({ action })} />
        <DateFilter label="From" value={list.filters.created_after} onChange={(created_after) => list.setFilters({ created_after })} />
        <DateFilter label="Until" value={list.filters.created_before} onChange={(created_before) => list.setFilters({ created_before })} endOfDay />
      </FilterBar>
      <ListView page={page} list={list} noun="audit rows" empty={<Empty title={filtered ? 'No row matches.' : 'Nothing recorded yet.'}>{null}</Empty>}>
        {(rows) => (
          <Table<AuditEntry>
            caption="Audit log"
            rows={rows}
            rowKey={(entry) => entry.id}
            columns={[
              { header: 'Action', rowHeader: true, cell: (entry) => <code>{entry.action}</code> },
              { header: 'Who', cell: (entry) => <button type="button" className="link" onClick={() => list.setFilters({ actor_id: entry.actor.id })}>{actorText(entry)}</button> },
              { header: 'Object', cell: (entry) => <ObjectLink object={entry.object} /> },
              { header: 'Result', cell: (entry) => (entry.status === 'failed' ? <strong>failed</strong> : 'succeeded') },
              { header: 'From', cell: (entry) => entry.client_address ?? '—' },
              { header: 'When', cell: (entry) => <Time value={entry.created_at} /> },
            ]}
          />
        )}
      </ListView>
    </>
  );
}
