import { Link } from 'react-router';
import { unwrapPage, type Schemas } from '../../api/client';
import { presentFilters, useListState, usePage } from '../../lib/list';
import { useApi, useModePath } from '../../lib/mode';
import { useCan } from '../../lib/permissions';
import { ExportCsvButton } from '../../ui/export-csv-button';
import { DateFilter, FilterBar, FilterSelect, SearchInput } from '../../ui/filters';
import { useProductName } from '../../ui/names';
import { PageHeader } from '../../ui/page';
import { FilterChips, ListView } from '../../ui/list-view';
import { Empty } from '../../ui/states';
import { CheckAccess } from './check-access';
import { EntitlementsTable } from './entitlements-table';

type Status = Schemas['EntitlementListItemDto']['status'];
type Source = Schemas['EntitlementListItemDto']['source'];

const STATUSES = [
  { value: '', label: 'Any status' },
  { value: 'active', label: 'Active' },
  { value: 'pending', label: 'Pending' },
  { value: 'suspended', label: 'Suspended' },
  { value: 'expired', label: 'Expired' },
  { value: 'revoked', label: 'Revoked' },
];

const SOURCES = [
  { value: '', label: 'Any source' },
  ...(['manual', 'api', 'order', 'subscription', 'bundle', 'rule', 'import', 'flow'] as const).map((source) => ({ value: source, label: source === 'api' ? 'API' : source.charAt(0).toUpperCase() + source.slice(1) })),
];

/**
 * The API lists entitlements only with a filter (FILTER_REQUIRED), so that a key can't page
 * through every grant by accident; "everything" is asked for as granted since 1970.
 */
const EVERYTHING = { granted_after: '1970-01-01T00:00:00.000Z' };

export function EntitlementsPage() {
  const can = useCan();
  const api = useApi();
  const path = useModePath();
  const list = useListState(['status', 'source', 'product_id', 'customer_id', 'store_customer_id', 'granted_after', 'granted_before'] as const);
  const product = useProductName(list.filters.product_id || null);
  const filters = presentFilters(list.filters);
  const query = { ...(Object.keys(filters).length > 0 ? filters : EVERYTHING), status: filters.status as Status | undefined, source: filters.source as Source | undefined };
  const page = usePage('entitlements', list, async (paging) => unwrapPage(await api.GET('/v1/entitlements', { params: { query: { ...paging, ...query } } })));
  const filtered = Object.values(list.filters).some(Boolean);
  return (
    <>
      <PageHeader
        title="Entitlements"
        description="Who may use which product, from which source, until when."
        actions={
          <>
            <ExportCsvButton path="/v1/entitlements" query={query} fileName="entitlements.csv" />
            <Link className="button secondary" to={path('imports')}>
              Import from CSV
            </Link>
            {can('entitlements:grant') && (
              <Link className="button primary" to={path('entitlements/new')}>
                Grant a product
              </Link>
            )}
          </>
        }
      />
      <CheckAccess />
      <FilterBar label="Filter entitlements">
        <SearchInput label="Store customer id" placeholder="The start of a store customer id" value={list.filters.store_customer_id} onChange={(store_customer_id) => list.setFilters({ store_customer_id })} />
        <FilterSelect label="Status" value={list.filters.status} onChange={(status) => list.setFilters({ status })} options={STATUSES} />
        <FilterSelect label="Source" value={list.filters.source} onChange={(source) => list.setFilters({ source })} options={SOURCES} />
        <DateFilter label="Granted from" value={list.filters.granted_after} onChange={(granted_after) => list.setFilters({ granted_after })} />
        <DateFilter label="Granted until" value={list.filters.granted_before} onChange={(granted_before) => list.setFilters({ granted_before })} endOfDay />
      </FilterBar>
      <FilterChips
        chips={[
          list.filters.product_id ? { what: 'product', label: `Product: ${product.data?.name ?? list.filters.product_id}`, onRemove: () => list.setFilters({ product_id: '' }) } : null,
          list.filters.customer_id ? { what: 'customer', label: `Customer: ${list.filters.customer_id}`, onRemove: () => list.setFilters({ customer_id: '' }) } : null,
        ]}
      />
      <ListView
        page={page}
        list={list}
        noun="entitlements"
        empty={
          <Empty title={filtered ? 'No entitlement matches.' : 'Nobody has been granted anything yet.'}>
            {!filtered && (
              can('entitlements:grant') && (
                <Link className="button primary" to={path('entitlements/new')}>
                  Grant a product
                </Link>
              )
            )}
          </Empty>
        }
      >
        {(rows) => (
          <EntitlementsTable rows={rows} caption="Entitlements" />
        )}
      </ListView>
    </>
  );
}
