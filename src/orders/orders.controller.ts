import { ApiJsonBody } from '../swagger/api-json-body.decorator';
import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentTenant } from '../auth/current-tenant.decorator';
import { RequireScopes } from '../auth/route-access.decorators';
import type { Tenant } from '../database/tenant';
import type { Operation } from '../database/operation';
import { PageResult } from '../envelope/page-result';
import { StatusResult } from '../envelope/status-result';
import { ErrorCode } from '../errors/error-code.enum';
import { CurrentOperation } from '../idempotency/current-operation.decorator';
import { ApiEnvelopeResponse } from '../swagger/api-envelope-response.decorator';
import { ApiErrorResponses } from '../swagger/api-error-responses.decorator';
import { ListOrdersQueryDto } from './dto/order-query.dto';
import { CreateOrderDto, RefundOrderDto } from './dto/order-request.dto';
import { OrderResponseDto } from './dto/order-response.dto';
import { OrdersService } from './orders.service';
import { ApiIdParam, ApiStoreIdParam } from '../swagger/api-path-parameters';
import { mayLag } from '../swagger/replica-lag';

const ORDER_ID_PARAM = ApiIdParam('order_id', 'ord', 'Order', ['POST /v1/orders', 'GET /v1/orders']);

@ApiTags('orders')
@Controller('v1/orders')
export class OrdersController {
  constructor(private readonly orders: OrdersService) {}

  @Post()
  @RequireScopes('entitlements:write')
  @ApiOperation({
    summary: 'Report a store order (upsert)',
    description:
      'Upsert by store_order_id: the first post creates the order (201, order.created), a later one (200, order.updated ' +
      'when something changed) grants only line items not seen before and leaves known ones alone. Each line item names ' +
      'its product by product_id (must exist, else 404), store_product_id or store_variant_id (a product listing it in ' +
      'store_variant_ids); no match is recorded as unmatched, an archived product as skipped (skipped_reason ' +
      'product_archived); every other line item grants one entitlement (source order, with store_order_id and ' +
      "store_line_item_id; a usage_limited product's usage_limit × quantity). All or nothing: one refused line item " +
      'refuses the post. Another customer for a known order is 409 ORDER_CUSTOMER_MISMATCH. Concurrent posts of one ' +
      'order grant each line item once.',
  })
  @ApiJsonBody(CreateOrderDto, {
    store_order_id: 'order_1001',
    store_customer_id: 'store_cust_1001',
    line_items: [{ store_line_item_id: 'li_1001_1', store_product_id: 'sku_ebook_42', quantity: 1 }],
    placed_at: '2026-11-20T09:15:00Z',
    metadata: { channel: 'web' },
  })
  @ApiEnvelopeResponse(OrderResponseDto, { status: 201, description: 'The order, first post' })
  @ApiEnvelopeResponse(OrderResponseDto, { status: 200, description: 'The order, a later post of the same store_order_id' })
  @ApiErrorResponses(
    ErrorCode.MISSING_REQUIRED_FIELD,
    ErrorCode.INVALID_PARAMETER,
    ErrorCode.CUSTOMER_NOT_FOUND,
    ErrorCode.PRODUCT_NOT_FOUND,
    ErrorCode.ORDER_CUSTOMER_MISMATCH,
    ErrorCode.IDEMPOTENCY_KEY_CONFLICT,
  )
  post(@CurrentOperation() operation: Operation, @Body() body: CreateOrderDto): Promise<StatusResult<OrderResponseDto>> {
    return this.orders.post(operation, body);
  }

  @Post(':order_id/refund')
  @HttpCode(200)
  @RequireScopes('entitlements:write')
  @ApiOperation({
    summary: 'Refund an order',
    description:
      "Revokes the entitlements of the named line items (all when store_line_item_ids is absent), their bundle children " +
      "with them, with reason (default 'refunded'), and marks the line items refunded; the order becomes " +
      'partially_refunded or refunded and order.refunded is published. A refunded line item is left alone: a repeat is a ' +
      'no-op (200). Unmatched and skipped line items have nothing to refund.',
  })
  @ORDER_ID_PARAM
  @ApiBody({ type: RefundOrderDto, required: false })
  @ApiEnvelopeResponse(OrderResponseDto, { description: 'The order after the refund' })
  @ApiErrorResponses(ErrorCode.INVALID_PARAMETER, ErrorCode.ORDER_NOT_FOUND, ErrorCode.IDEMPOTENCY_KEY_CONFLICT)
  refund(@CurrentOperation() operation: Operation, @Param('order_id') orderId: string, @Body() body: RefundOrderDto): Promise<OrderResponseDto> {
    return this.orders.refund(operation, orderId, body);
  }

  @Get()
  @RequireScopes('entitlements:read')
  @ApiOperation(mayLag({
    summary: 'List orders',
    description:
      'Newest first, cursor-paginated with total. Optional filters: a customer (customer_id or store_customer_id; both must name ' +
      'the same customer, and an unknown one has no orders) and `search`, an exact order id or store order id.',
  }))
  @ApiEnvelopeResponse(OrderResponseDto, { description: 'A page of orders', list: 'total' })
  @ApiErrorResponses(ErrorCode.INVALID_PARAMETER)
  list(@CurrentTenant() tenant: Tenant, @Query() query: ListOrdersQueryDto): Promise<PageResult<OrderResponseDto>> {
    return this.orders.list(tenant, query);
  }

  @Get('store/:store_order_id')
  @RequireScopes('entitlements:read')
  @ApiOperation({ summary: 'Get an order by its store id' })
  @ApiStoreIdParam('store_order_id', "The order's id in the store, as posted to `POST /v1/orders`", 'order_1001')
  @ApiEnvelopeResponse(OrderResponseDto, { description: 'The order' })
  @ApiErrorResponses(ErrorCode.ORDER_NOT_FOUND)
  getByStoreId(@CurrentTenant() tenant: Tenant, @Param('store_order_id') storeOrderId: string): Promise<OrderResponseDto> {
    return this.orders.getByStoreId(tenant, storeOrderId);
  }

  @Get(':order_id')
  @RequireScopes('entitlements:read')
  @ApiOperation({ summary: 'Get an order' })
  @ORDER_ID_PARAM
  @ApiEnvelopeResponse(OrderResponseDto, { description: 'The order' })
  @ApiErrorResponses(ErrorCode.ORDER_NOT_FOUND)
  get(@CurrentTenant() tenant: Tenant, @Param('order_id') orderId: string): Promise<OrderResponseDto> {
    return this.orders.get(tenant, orderId);
  }
}
