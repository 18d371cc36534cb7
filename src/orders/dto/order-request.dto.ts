import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { IsIsoTimestamp } from '../../validation/iso-timestamp';
import { IsMetadataObject } from '../../validation/metadata-object';
import { IsOptionalNotNull } from '../../validation/is-optional-not-null.decorator';
import { STORE_ID_MAX_LENGTH } from '../../validation/input-bounds';
import { TestClockField } from '../../test-clock-records/test-clock-field.decorator';

export const MAX_LINE_ITEMS = 250;
export const MAX_QUANTITY = 10_000;

/** One line item: exactly one of product_id, store_product_id, store_variant_id names its product. */
export class OrderLineItemRequestDto {
  @ApiProperty({ description: "The line item's id in the store; unique within the order", maxLength: STORE_ID_MAX_LENGTH, example: 'li_1001_1' })
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(STORE_ID_MAX_LENGTH)
  store_line_item_id: string;

  // Examples of the alternatives sit in their descriptions: Swagger UI pre-fills every example, and two of one choice are a 400.
  @ApiPropertyOptional({ description: 'Our product id, instead of store_product_id / store_variant_id; must exist (else 404 PRODUCT_NOT_FOUND, and the whole post is refused) (e.g. prod_01jd8x3k2m4n5p6q7r8s9t0v1w)' })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(STORE_ID_MAX_LENGTH)
  product_id?: string;

  @ApiPropertyOptional({ description: "The product's store_product_id; no match records the line item as unmatched", example: 'sku_ebook_42' })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(STORE_ID_MAX_LENGTH)
  store_product_id?: string;

  @ApiPropertyOptional({ description: "A variant id listed in some product's store_variant_ids, instead of product_id / store_product_id; no match records the line item as unmatched (e.g. sku_ebook_42_pdf)" })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(STORE_ID_MAX_LENGTH)
  store_variant_id?: string;

  @ApiPropertyOptional({ description: "Units bought; a usage_limited product's usage_limit is multiplied by it. Default 1", minimum: 1, maximum: MAX_QUANTITY, example: 1 })
  @IsOptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(MAX_QUANTITY)
  quantity?: number;
}

/** Body of POST /v1/orders: exactly one of customer_id and store_customer_id. */
export class CreateOrderDto {
  @ApiProperty({ description: "The order's id in the store: posting it again updates the order", maxLength: STORE_ID_MAX_LENGTH, example: 'order_1001' })
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(STORE_ID_MAX_LENGTH)
  store_order_id: string;

  @ApiPropertyOptional({ description: 'The customer in the store (created if new)', example: 'store_cust_1001' })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(STORE_ID_MAX_LENGTH)
  store_customer_id?: string;

  @ApiPropertyOptional({ description: 'Our customer id (must exist), instead of store_customer_id (e.g. cus_01jd8x3k2m4n5p6q7r8s9t0v1w)' })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(STORE_ID_MAX_LENGTH)
  customer_id?: string;

  @TestClockField()
  test_clock?: string;

  @ApiProperty({ description: `1 to ${MAX_LINE_ITEMS} line items; a repeat post grants only line items not seen before`, type: [OrderLineItemRequestDto] })
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_LINE_ITEMS)
  @ValidateNested({ each: true })
  @Type(() => OrderLineItemRequestDto)
  line_items: OrderLineItemRequestDto[];

  @ApiPropertyOptional({ description: 'When the order was placed in the store', example: '2026-11-20T09:15:00Z' })
  @IsOptional()
  @IsIsoTimestamp()
  placed_at?: string;

  @ApiPropertyOptional({ description: 'Arbitrary JSON object, at most 16 KiB serialized; a repeat post that sends it replaces it', type: 'object', additionalProperties: true, example: { channel: 'web' } })
  @IsOptionalNotNull()
  @IsMetadataObject()
  metadata?: Record<string, unknown>;
}

/** Body of POST /v1/orders/{id}/refund. */
export class RefundOrderDto {
  @ApiPropertyOptional({ description: 'The line items refunded; all when absent', type: [String], example: ['li_1001_1'] })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_LINE_ITEMS)
  @IsString({ each: true })
  @MaxLength(STORE_ID_MAX_LENGTH, { each: true })
  store_line_item_ids?: string[];

  @ApiPropertyOptional({ description: "The revocation_reason of the revoked entitlements; default 'refunded'", maxLength: 500, example: 'refunded' })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(500)
  reason?: string;
}
