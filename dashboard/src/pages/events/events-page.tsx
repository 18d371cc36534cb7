import { Link } from 'react-router';
import { unwrapPage, type Schemas } from '../../api/client';
import { presentFilters, useListState, usePage } from '../../lib/list';
import { useApi, useModePath } from '../../lib/mode';
import { DateFilter, FilterBar, FilterSelect, SearchInput } from '../../ui/filters';
import { PageHeader } from '../../ui/page';
import { ListView } from '../../ui/list-view';
import { RecordLink } from '../../ui/names';
import { Empty } from '../../ui/states';
import { Table } from '../../ui/table';
import { Time } from '../../ui/time';
import { EVENT_TYPES, type EventType } from '../webhooks/event-types';

type Event = Schemas['EventResponseDto'];

const TYPES = [{ value: '', label: 'Every type' }, ...EVENT_TYPES.map((type) => ({ value: type, label: type }))];

/** The object an event is about, by its id (data.object.id). */
export function objectIdOf(event: Event): string | null {
  const id = (event.data.object as { id?: unknown }).id;
  return typeof id === 'string' ? id : null;
}

export function EventsPage() {
  const api = useApi();
  const path = useModePath();
  const list = useListState(['type', 'object_id', 'created_after', 'created_before'] as const);
  const page = usePage('events', list, async (paging) => {
    const filters = presentFilters(list.filters);
    return unwrapPage(await api.GET('/v1/events', { params: { query: { ...paging, ...filters, type: filters.type as EventType | undefined } } }));
  });
  const filtered = Object.values(list.filters).some(Boolean);
  return (
    <>
      <PageHeader title="Events" description="Every change, in order, as your webhook endpoints receive it." />
      <FilterBar label="Filter events">
        <FilterSelect label="Type" value={list.filters.type} onChange={(type) => list.setFilters({ type })} options={TYPES} />
        <SearchInput label="About" placeholder="An id: ent_…, prod_…, ord_…" value={list.filters.object_id} onChange={(object_id) => list.setFilters({ object_id })} />
        <DateFilter label="From" value={list.filters.created_after} onChange={(created_after) => list.setFilters({ created_after })} />
        <DateFilter label="Until" value={list.filters.created_before} onChange={(created_before) => list.setFilters({ created_before })} endOfDay />
      </FilterBar>
      <ListView page={page} list={list} noun="events" empty={<Empty title={filtered ? 'No event matches.' : 'No events yet.'}>{filtered ? null : <p>Create a product or grant one: each change is an event.</p>}</Empty>}>
        {(rows) => (
          <Table<Event>
            caption="Events"
            rows={rows}
            rowKey={(event) => event.id}
            columns={[
              { header: 'Event', rowHeader: true, cell: (event) => <Link to={path(`events/${event.id}`)}>{event.type}</Link> },
              { header: 'About', cell: (event) => { const about = objectIdOf(event); return about ? <RecordLink id={about} /> : '—'; } },
              { header: 'When', cell: (event) => <Time value={event.created_at} /> },
            ]}
          />
        )}
      </ListView>
    </>
  );
}
