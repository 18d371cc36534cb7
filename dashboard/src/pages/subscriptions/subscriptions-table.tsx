import { Link } from 'react-router';
import type { Schemas } from '../../api/client';
import { useModePath } from '../../lib/mode';
import { Badge } from '../../ui/badge';
import { ProductLink } from '../../ui/names';
import { Table } from '../../ui/table';
import { Time } from '../../ui/time';

type Subscription = Schemas['SubscriptionResponseDto'];

export function SubscriptionsTable({ rows, caption, withCustomer = true }: { rows: Subscription[]; caption: string; withCustomer?: boolean }) {
  const path = useModePath();
  return (
    <Table<Subscription>
      caption={caption}
      rows={rows}
      rowKey={(subscription) => subscription.id}
      columns={[
        { header: 'Store subscription', rowHeader: true, cell: (subscription) => <Link to={path(`subscriptions/${subscription.id}`)}>{subscription.store_subscription_id}</Link> },
        ...(withCustomer ? [{ header: 'Customer', cell: (subscription: Subscription) => <Link to={path(`customers/${subscription.customer_id}`)}>{subscription.store_customer_id}</Link> }] : []),
        { header: 'Product', cell: (subscription) => <ProductLink id={subscription.product_id} name={subscription.product_name} /> },
        {
          header: 'Status',
          cell: (subscription) => (
            <>
              <Badge status={subscription.status} />
              {subscription.cancel_at_period_end && <small className="muted block">Ends at period end</small>}
            </>
          ),
        },
        { header: 'Period ends', cell: (subscription) => <Time value={subscription.current_period_end} /> },
        { header: 'Access', cell: (subscription) => (subscription.entitlement_status ? <Badge status={subscription.entitlement_status} /> : <span className="muted">None</span>) },
      ]}
    />
  );
}
