import { OrderResponseDto } from './dto/order-response.dto';
import { OrderLineItemEntity } from './order-line-item.entity';
import { OrderEntity } from './order.entity';

/** The customer as an order response names it. */
export interface OrderCustomer {
  store_customer_id: string;
  test_clock_id: string | null;
}

/** `productNames`: the names of the line items' products, read once per response or page. */
export function toOrderResponse(order: OrderEntity, lineItems: OrderLineItemEntity[], customer: OrderCustomer | undefined, productNames: ReadonlyMap<string, string>): OrderResponseDto {
  return {
    id: order.id,
    store_order_id: order.store_order_id,
    customer_id: order.customer_id,
    store_customer_id: customer?.store_customer_id ?? '',
    test_clock: customer?.test_clock_id ?? null,
    status: order.status,
    line_items: lineItems.map((item) => ({
      store_line_item_id: item.store_line_item_id,
      product_id: item.product_id,
      product_name: item.product_id ? (productNames.get(item.product_id) ?? null) : null,
      quantity: item.quantity,
      status: item.status,
      skipped_reason: item.skipped_reason,
      entitlement_id: item.entitlement_id,
    })),
    placed_at: order.placed_at ? order.placed_at.toISOString() : null,
    metadata: order.metadata,
    created_at: order.created_at.toISOString(),
    updated_at: order.updated_at.toISOString(),
  };
}
