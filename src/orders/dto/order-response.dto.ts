import { ApiProperty } from '@nestjs/swagger';
import { LINE_ITEM_STATUSES, SKIPPED_REASONS } from '../order-line-item.entity';
import { ORDER_STATUSES } from '../order.entity';

export class OrderLineItemResponseDto {
  @ApiProperty({ description: "The line item's id in the store", example: 'li_1001_1' })
  store_line_item_id: string;

  @ApiProperty({ description: 'The product it matched; null when unmatched', type: String, nullable: true, example: 'prod_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  product_id: string | null;

  @ApiProperty({ description: "The product's name, as it is now; null when unmatched", type: String, nullable: true, example: 'The Field Guide (ebook)' })
  product_name: string | null;

  @ApiProperty({ description: 'Units bought', example: 1 })
  quantity: number;

  @ApiProperty({ description: 'granted, unmatched (no product), skipped (see skipped_reason) or refunded', enum: LINE_ITEM_STATUSES, example: 'granted' })
  status: string;

  @ApiProperty({ description: 'Why a skipped line item granted nothing', enum: SKIPPED_REASONS, type: String, nullable: true, example: null })
  skipped_reason: string | null;

  @ApiProperty({ description: 'The entitlement granted for it (granted and refunded line items)', type: String, nullable: true, example: 'ent_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  entitlement_id: string | null;
}

export class OrderResponseDto {
  @ApiProperty({ description: 'Order id', example: 'ord_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({ description: "The order's id in the store", example: 'order_1001' })
  store_order_id: string;

  @ApiProperty({ description: 'Customer id', example: 'cus_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  customer_id: string;

  @ApiProperty({ description: 'The customer in the store', example: 'cust_8841' })
  store_customer_id: string;

  @ApiProperty({ description: "Test mode: the test clock the order's customer is bound to (events about it carry data.test_clock); null when unbound", type: String, nullable: true, example: null })
  test_clock: string | null;

  @ApiProperty({ description: 'active, partially_refunded (some granted line items refunded) or refunded (all)', enum: ORDER_STATUSES, example: 'active' })
  status: string;

  @ApiProperty({ description: 'Line items in the order they were first posted', type: [OrderLineItemResponseDto] })
  line_items: OrderLineItemResponseDto[];

  @ApiProperty({ description: 'When the order was placed in the store', type: String, nullable: true, example: '2026-11-20T09:15:00.000Z' })
  placed_at: string | null;

  @ApiProperty({ description: 'Arbitrary JSON object', type: 'object', additionalProperties: true, example: { channel: 'web' } })
  metadata: Record<string, unknown>;

  @ApiProperty({ description: 'First post', example: '2026-11-22T13:04:41.123Z' })
  created_at: string;

  @ApiProperty({ description: 'Last change', example: '2026-11-22T13:04:41.123Z' })
  updated_at: string;
}
