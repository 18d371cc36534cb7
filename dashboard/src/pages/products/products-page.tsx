import { Link } from 'react-router';
import { unwrapPage, type Schemas } from '../../api/client';
import { humanize } from '../../lib/format';
import { presentFilters, useListState, usePage } from '../../lib/list';
import { useApi, useModePath } from '../../lib/mode';
import { useCan } from '../../lib/permissions';
import { Badge } from '../../ui/badge';
import { FilterBar, FilterSelect, SearchInput } from '../../ui/filters';
import { PageHeader } from '../../ui/page';
import { ListView } from '../../ui/list-view';
import { Table } from '../../ui/table';
import { Time } from '../../ui/time';
import { Empty } from '../../ui/states';

type Product = Schemas['ProductListItemDto'];

const STATUSES = [
  { value: '', label: 'Active and archived' },
  { value: 'active', label: 'Active' },
  { value: 'archived', label: 'Archived' },
];

export function ProductsPage() {
  const can = useCan();
  const api = useApi();
  const path = useModePath();
  const list = useListState(['search', 'status'] as const);
  const page = usePage('products', list, async (paging) => {
    const filters = presentFilters(list.filters);
    return unwrapPage(await api.GET('/v1/products', { params: { query: { ...paging, ...filters, status: filters.status as Product['status'] | undefined } } }));
  });
  const filtered = Boolean(list.filters.search || list.filters.status);
  return (
    <>
      <PageHeader
        title="Products"
        description="What your customers can be entitled to, and how each is delivered."
        actions={
          <>
            <Link className="button secondary" to={path('grant-rules')}>
              Grant rules
            </Link>
            {can('products:write') && (
              <Link className="button primary" to={path('products/new')}>
                New product
              </Link>
            )}
          </>
        }
      />
      <FilterBar label="Search products">
        <SearchInput label="Search" placeholder="Name, product id or store id" value={list.filters.search} onChange={(search) => list.setFilters({ search })} />
        <FilterSelect label="Status" value={list.filters.status} onChange={(status) => list.setFilters({ status })} options={STATUSES} />
      </FilterBar>
      <ListView
        page={page}
        list={list}
        noun="products"
        empty={
          <Empty title={filtered ? 'No product matches.' : 'No products yet.'}>
            {filtered ? (
              <button type="button" className="secondary" onClick={() => list.setFilters({ search: '', status: '' })}>
                Clear the search
              </button>
            ) : (
              can('products:write') && (
                <Link className="button primary" to={path('products/new')}>
                  Create your first product
                </Link>
              )
            )}
          </Empty>
        }
      >
        {(rows) => (
          <Table<Product>
            caption="Products"
            rows={rows}
            rowKey={(product) => product.id}
            columns={[
              {
                header: 'Name',
                rowHeader: true,
                cell: (product) => (
                  <>
                    <Link to={path(`products/${product.id}`)}>{product.name}</Link>
                    {product.store_product_id && <small className="muted block">{product.store_product_id}</small>}
                  </>
                ),
              },
              {
                header: 'Access',
                cell: (product) =>
                  product.entitlement_type === 'time_limited'
                    ? `${product.access_duration_days} days`
                    : product.entitlement_type === 'usage_limited'
                      ? `${product.usage_limit} uses`
                      : humanize(product.entitlement_type),
              },
              { header: 'Status', cell: (product) => <Badge status={product.status} /> },
              { header: 'Created', cell: (product) => <Time value={product.created_at} /> },
            ]}
          />
        )}
      </ListView>
    </>
  );
}
