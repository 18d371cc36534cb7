import { Link } from 'react-router';
import type { Schemas } from '../../api/client';
import { formatCount, humanize } from '../../lib/format';
import { useModePath } from '../../lib/mode';
import { Badge } from '../../ui/badge';
import { ProductLink } from '../../ui/names';
import { Table } from '../../ui/table';
import { Time } from '../../ui/time';

type Entitlement = Schemas['EntitlementListItemDto'];

/** Entitlements with the product by name; `without` drops the column the page is about. */
export function EntitlementsTable({ rows, caption, without }: { rows: Entitlement[]; caption: string; without?: 'customer' | 'product' }) {
  const path = useModePath();
  return (
    <Table<Entitlement>
      caption={caption}
      rows={rows}
      rowKey={(entitlement) => entitlement.id}
      columns={[
        ...(without === 'product' ? [] : [{ header: 'Product', rowHeader: true, cell: (entitlement: Entitlement) => <ProductLink id={entitlement.product_id} name={entitlement.product_name} /> }]),
        ...(without === 'customer'
          ? []
          : [{ header: 'Customer', rowHeader: without === 'product', cell: (entitlement: Entitlement) => <Link to={path(`customers/${entitlement.customer_id}`)}>{entitlement.store_customer_id}</Link> }]),
        { header: 'Status', cell: (entitlement) => <Badge status={entitlement.status} /> },
        { header: 'Source', cell: (entitlement) => humanize(entitlement.source) },
        {
          header: 'Uses',
          cell: (entitlement) => (entitlement.usage_limit === null ? formatCount(entitlement.usage_count) : `${formatCount(entitlement.usage_count)} of ${formatCount(entitlement.usage_limit)}`),
        },
        { header: 'Expires', cell: (entitlement) => <Time value={entitlement.expires_at} empty="Never" /> },
        {
          header: 'Granted',
          cell: (entitlement) => (
            <Link to={path(`entitlements/${entitlement.id}`)} aria-label={`Entitlement ${entitlement.id}, granted ${entitlement.granted_at}`}>
              <Time value={entitlement.granted_at} />
            </Link>
          ),
        },
      ]}
    />
  );
}
