import { Link } from 'react-router';
import { unwrapPage, type Schemas } from '../../api/client';
import { presentFilters, useListState, usePage } from '../../lib/list';
import { useApi, useModePath } from '../../lib/mode';
import { useCan } from '../../lib/permissions';
import { ExportCsvButton } from '../../ui/export-csv-button';
import { DateFilter, FilterBar, SearchInput } from '../../ui/filters';
import { PageHeader } from '../../ui/page';
import { ListView } from '../../ui/list-view';
import { Empty } from '../../ui/states';
import { Table } from '../../ui/table';
import { Time } from '../../ui/time';

type Customer = Schemas['CustomerResponseDto'];

export function CustomersPage() {
  const can = useCan();
  const api = useApi();
  const path = useModePath();
  const list = useListState(['search', 'created_after', 'created_before'] as const);
  const page = usePage('customers', list, async (paging) => unwrapPage(await api.GET('/v1/customers', { params: { query: { ...paging, ...presentFilters(list.filters) } } })));
  const filtered = Object.values(list.filters).some(Boolean);
  return (
    <>
      <PageHeader
        title="Customers"
        description="Everyone who was granted something: created by a grant, an order or a subscription naming a new store customer id."
        actions={
          <>
            <ExportCsvButton path="/v1/customers" query={presentFilters(list.filters)} fileName="customers.csv" />
            {can('entitlements:grant') && (
              <Link className="button primary" to={path('entitlements/new')}>
                Grant a product
              </Link>
            )}
          </>
        }
      />
      <FilterBar label="Search customers">
        <SearchInput label="Search" placeholder="Customer id, or the start of a store customer id" value={list.filters.search} onChange={(search) => list.setFilters({ search })} />
        <DateFilter label="Created from" value={list.filters.created_after} onChange={(created_after) => list.setFilters({ created_after })} />
        <DateFilter label="Created until" value={list.filters.created_before} onChange={(created_before) => list.setFilters({ created_before })} endOfDay />
      </FilterBar>
      <ListView page={page} list={list} noun="customers" empty={<Empty title={filtered ? 'No customer matches.' : 'No customers yet.'}>{filtered ? null : <p>A customer appears with their first grant, order or subscription.</p>}</Empty>}>
        {(rows) => (
          <Table<Customer>
            caption="Customers"
            rows={rows}
            rowKey={(customer) => customer.id}
            columns={[
              { header: 'Store customer id', rowHeader: true, cell: (customer) => <Link to={path(`customers/${customer.id}`)}>{customer.store_customer_id}</Link> },
              { header: 'Customer id', cell: (customer) => <code>{customer.id}</code> },
              { header: 'Since', cell: (customer) => <Time value={customer.created_at} /> },
            ]}
          />
        )}
      </ListView>
    </>
  );
}
