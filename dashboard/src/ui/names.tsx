import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { unwrap } from '../api/client';
import { useApi, useMode, useModePath } from '../lib/mode';
import { recordPath } from '../lib/record-path';

/** Fetches a product's name (cached per mode and id); many rows naming one product ask once. */
export function useProductName(productId: string | null | undefined) {
  const api = useApi();
  const mode = useMode();
  return useQuery({
    queryKey: [mode, 'products', 'one', productId],
    enabled: Boolean(productId),
    staleTime: 60_000,
    queryFn: async () => unwrap(await api.GET('/v1/products/{product_id}', { params: { path: { product_id: productId ?? '' } } })),
  });
}

/**
 * A product by name, linked to its page. `name` when the answer carried it already (list items do,
 * docs/dashboard-api-contract.md §4); otherwise the product is fetched.
 */
export function ProductLink({ id, name }: { id: string | null | undefined; name?: string | null }) {
  const path = useModePath();
  const fetched = useProductName(name ? null : id);
  if (!id) return <span className="muted">No product</span>;
  const shown = name ?? fetched.data?.name ?? (fetched.isPending ? '…' : id);
  return <Link to={path(`products/${id}`)}>{shown}</Link>;
}

/** A customer by store id, linked to their page. */
export function CustomerLink({ id, storeId }: { id: string; storeId?: string | null }) {
  const path = useModePath();
  return <Link to={path(`customers/${id}`)}>{storeId || id}</Link>;
}

/** Any id as a link to its record (lib/record-path.ts), or as code when the dashboard shows it nowhere. */
export function RecordLink({ id }: { id: string }) {
  const path = useModePath();
  const target = recordPath(id);
  return target ? (
    <Link to={path(target)}>
      <code>{id}</code>
    </Link>
  ) : (
    <code>{id}</code>
  );
}
