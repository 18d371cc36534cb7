import { Link } from 'react-router';
import type { Schemas } from '../../api/client';
import { useModePath } from '../../lib/mode';
import { Badge } from '../../ui/badge';
import { Table } from '../../ui/table';
import { Time } from '../../ui/time';

type Order = Schemas['OrderResponseDto'];

export function OrdersTable({ rows, caption, withCustomer = true }: { rows: Order[]; caption: string; withCustomer?: boolean }) {
  const path = useModePath();
  return (
    <Table<Order>
      caption={caption}
      rows={rows}
      rowKey={(order) => order.id}
      columns={[
        { header: 'Store order', rowHeader: true, cell: (order) => <Link to={path(`orders/${order.id}`)}>{order.store_order_id}</Link> },
        ...(withCustomer ? [{ header: 'Customer', cell: (order: Order) => <Link to={path(`customers/${order.customer_id}`)}>{order.store_customer_id}</Link> }] : []),
        { header: 'Status', cell: (order) => <Badge status={order.status} /> },
        {
          header: 'Products',
          cell: (order) =>
            order.line_items
              .map((item) => item.product_name ?? item.store_line_item_id)
              .slice(0, 3)
              .join(', ') + (order.line_items.length > 3 ? ` and ${order.line_items.length - 3} more` : ''),
        },
        { header: 'Placed', cell: (order) => <Time value={order.placed_at ?? order.created_at} /> },
      ]}
    />
  );
}
