import { useQueries, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { unwrap, unwrapPage, type Schemas } from '../../api/client';
import { humanize } from '../../lib/format';
import { useApi, useMode, useModePath } from '../../lib/mode';
import { useCan } from '../../lib/permissions';
import { useWrite } from '../../lib/write';
import { Badge } from '../../ui/badge';
import { ConfirmButton } from '../../ui/confirm';
import { Id } from '../../ui/copy';
import { JsonView } from '../../ui/json';
import { ProductLink } from '../../ui/names';
import { Facts, PageHeader, Section } from '../../ui/page';
import type { ProductChoice } from '../../ui/product-picker';
import { Empty, ErrorMessage, Loading } from '../../ui/states';
import { Table } from '../../ui/table';
import { Time } from '../../ui/time';
import { ProductFiles } from './product-files';
import { ProductForm, type ProductBody } from './product-form';

type Product = Schemas['ProductResponseDto'];

function accessOf(product: Product): string {
  if (product.entitlement_type === 'time_limited') return `${product.access_duration_days} days from the grant`;
  if (product.entitlement_type === 'usage_limited') return `${product.usage_limit} uses`;
  if (product.entitlement_type === 'subscription_linked') return 'While the store subscription runs';
  return 'Permanent';
}

function deliveryOf(product: Product) {
  const config = product.fulfillment_config;
  if (config.delivery_method === 'URL') return <a href={config.access_url ?? undefined}>{config.access_url}</a>;
  if (config.delivery_method === 'INSTRUCTIONS') return <span className="pre">{config.access_instructions}</span>;
  return `Files (${config.file_ids.length} linked)`;
}

export function ProductPage() {
  const can = useCan();
  const { productId = '' } = useParams();
  const api = useApi();
  const mode = useMode();
  const path = useModePath();
  const notice = (useLocation().state as { notice?: string } | null)?.notice;
  const [editing, setEditing] = useState(false);
  const product = useQuery({
    queryKey: [mode, 'products', 'one', productId],
    queryFn: async () => unwrap(await api.GET('/v1/products/{product_id}', { params: { path: { product_id: productId } } })),
  });
  const included = useQueries({
    queries: (product.data?.included_product_ids ?? []).map((id) => ({
      queryKey: [mode, 'products', 'one', id],
      queryFn: async () => unwrap(await api.GET('/v1/products/{product_id}', { params: { path: { product_id: id } } })),
      staleTime: 60_000,
    })),
  });
  const update = useWrite({
    mutationFn: async (body: ProductBody) => unwrap(await api.PATCH('/v1/products/{product_id}', { params: { path: { product_id: productId } }, body })),
    invalidates: [['products']],
    onSuccess: () => setEditing(false),
  });
  const archive = useWrite({
    mutationFn: async () => unwrap(await api.DELETE('/v1/products/{product_id}', { params: { path: { product_id: productId } } })),
    invalidates: [['products']],
  });
  if (product.isPending) return <Loading what="the product" />;
  if (product.error || !product.data) return <ErrorMessage error={product.error} />;
  const data = product.data;
  const bundle: ProductChoice[] = included.flatMap((query) => (query.data ? [query.data] : []));
  return (
    <>
      <PageHeader
        back={{ to: path('products'), label: 'Products' }}
        title={
          <>
            {data.name} <Badge status={data.status} />
          </>
        }
        description={data.description || undefined}
        actions={
          data.status === 'active' && (
            <>
              {can('entitlements:grant') && (
                <Link className="button primary" to={`${path('entitlements/new')}?product_id=${data.id}`}>
                  Grant to a customer
                </Link>
              )}
              {can('products:write') && (
                <button type="button" className="secondary" onClick={() => setEditing(true)} disabled={editing}>
                  Edit
                </button>
              )}
              {can('products:write') && (
                <ConfirmButton label="Archive" title={`Archive ${data.name}?`} confirmLabel="Archive product" onConfirm={() => archive.runAsync(undefined)}>
                  <p>New grants of it are refused. Customers who have it keep their access. Archiving can’t be undone from the dashboard.</p>
                </ConfirmButton>
              )}
            </>
          )
        }
      />
      {notice && (
        <p role="status" className="notice">
          {notice}
        </p>
      )}
      {editing ? (
        <Section title="Edit product">
          <ProductForm product={data} bundle={bundle} submitLabel="Save changes" pending={update.isPending} error={update.error} onSubmit={update.run} onCancel={() => setEditing(false)} />
        </Section>
      ) : (
        <Section title="Details">
          <Facts
            items={[
              ['Product id', <Id key="id" value={data.id} />],
              ['Store product id', data.store_product_id ?? <span className="muted">None</span>],
              ['Access', accessOf(data)],
              ['Delivery', deliveryOf(data)],
              ['License keys', licenseOf(data)],
              ['Store variant ids', data.store_variant_ids.length > 0 ? data.store_variant_ids.join(', ') : <span className="muted">None</span>],
              [
                'Bundle contents',
                data.included_product_ids.length > 0 ? (
                  <ul className="inline-list">
                    {data.included_product_ids.map((id) => (
                      <li key={id}>
                        <ProductLink id={id} />
                      </li>
                    ))}
                  </ul>
                ) : (
                  <span className="muted">Not a bundle</span>
                ),
              ],
              ['Created', <Time key="created" value={data.created_at} />],
              ['Updated', <Time key="updated" value={data.updated_at} />],
            ]}
          />
          {Object.keys(data.metadata ?? {}).length > 0 && <JsonView label="Metadata" value={data.metadata} />}
        </Section>
      )}
      <ProductFiles product={data} />
      <ProductEntitlements product={data} />
    </>
  );
}

/** What a grant's license key allows, in words (DESIGN §18). */
function licenseOf(product: Product) {
  const license = product.license;
  if (!license) return <span className="muted">None</span>;
  const devices = license.activation_limit === null ? 'unlimited devices' : `${license.activation_limit.toLocaleString('en')} ${license.activation_limit === 1 ? 'device' : 'devices'}`;
  const seats = license.activation_ttl_seconds === null ? 'kept until deactivated' : `released after ${license.activation_ttl_seconds.toLocaleString('en')} s without a heartbeat`;
  return `A key with each grant: ${devices} per key, ${seats}`;
}

type Entitlement = Schemas['EntitlementListItemDto'];

function ProductEntitlements({ product }: { product: Product }) {
  const api = useApi();
  const mode = useMode();
  const path = useModePath();
  const list = useQuery({
    queryKey: [mode, 'entitlements', 'list', { product_id: product.id }, 'recent'],
    queryFn: async () => unwrapPage(await api.GET('/v1/entitlements', { params: { query: { product_id: product.id, limit: 5 } } })),
  });
  return (
    <Section
      title="Customers with access"
      actions={
        <Link to={`${path('entitlements')}?product_id=${product.id}`} className="button secondary small">
          All {list.data?.total ?? ''} entitlements
        </Link>
      }
    >
      {list.isPending && <Loading what="entitlements" />}
      <ErrorMessage error={list.error} />
      {list.data && list.data.data.length === 0 && <Empty title="Nobody has this product yet." />}
      {list.data && list.data.data.length > 0 && (
        <Table<Entitlement>
          caption={`Latest entitlements to ${product.name}`}
          rows={list.data.data}
          rowKey={(entitlement) => entitlement.id}
          columns={[
            { header: 'Customer', rowHeader: true, cell: (entitlement) => <Link to={path(`customers/${entitlement.customer_id}`)}>{entitlement.store_customer_id}</Link> },
            { header: 'Status', cell: (entitlement) => <Badge status={entitlement.status} /> },
            { header: 'Source', cell: (entitlement) => humanize(entitlement.source) },
            {
              header: 'Granted',
              cell: (entitlement) => (
                <Link to={path(`entitlements/${entitlement.id}`)}>
                  <Time value={entitlement.granted_at} />
                </Link>
              ),
            },
          ]}
        />
      )}
    </Section>
  );
}
