import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { IsIsoTimestamp } from '../../validation/iso-timestamp';
import { IsMetadataObject } from '../../validation/metadata-object';
import { IsOptionalNotNull } from '../../validation/is-optional-not-null.decorator';
import { STORE_ID_MAX_LENGTH, IDEMPOTENCY_KEY_MAX_LENGTH } from '../../validation/input-bounds';
import { TestClockField } from '../../test-clock-records/test-clock-field.decorator';
import { USAGE_LIMIT_MAX } from '../../validation/input-bounds';


/**
 * Body of POST /v1/entitlements. Exactly one of customer_id / store_customer_id and one of
 * product_id / store_product_id; the service checks the pairs (neither → MISSING_REQUIRED_FIELD,
 * both → INVALID_PARAMETER).
 */
export class CreateEntitlementDto {
  @ApiPropertyOptional({ description: 'Existing customer id (one of customer_id / store_customer_id)', example: 'cus_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(STORE_ID_MAX_LENGTH)
  customer_id?: string;

  @ApiPropertyOptional({ description: 'Customer id in the e-commerce platform; the customer is created if new', example: 'store_cust_1001' })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(STORE_ID_MAX_LENGTH)
  store_customer_id?: string;

  @TestClockField()
  test_clock?: string;

  @ApiPropertyOptional({ description: 'Product id (one of product_id / store_product_id)', example: 'prod_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(STORE_ID_MAX_LENGTH)
  product_id?: string;

  @ApiPropertyOptional({ description: 'Product id in the e-commerce platform', example: 'sku_ebook_42' })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(STORE_ID_MAX_LENGTH)
  store_product_id?: string;

  @ApiPropertyOptional({
    description: "When access ends; must be in the future. Default: grant + the product's access_duration_days (time_limited), else none",
    example: '2030-01-15T10:30:00Z',
  })
  @IsOptional()
  @IsIsoTimestamp()
  expires_at?: string;

  @ApiPropertyOptional({ description: "Maximum uses. Default: the product's usage_limit (usage_limited), else unlimited", minimum: 1, example: 10 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(USAGE_LIMIT_MAX)
  usage_limit?: number;

  @ApiPropertyOptional({ description: 'Arbitrary JSON object, at most 16 KiB serialized', type: 'object', additionalProperties: true, example: { order_note: 'gift' } })
  @IsOptionalNotNull()
  @IsMetadataObject()
  metadata?: Record<string, unknown>;

  @ApiPropertyOptional({ description: 'Initial status: active (default) or pending (activate later)', enum: ['active', 'pending'], example: 'active' })
  @IsOptionalNotNull()
  @IsIn(['active', 'pending'])
  status?: 'active' | 'pending';

  @ApiPropertyOptional({ description: 'Order id in the e-commerce platform', example: 'order_5001' })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(STORE_ID_MAX_LENGTH)
  store_order_id?: string;

  @ApiPropertyOptional({ description: 'Order line item id in the e-commerce platform', example: 'line_9001' })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(STORE_ID_MAX_LENGTH)
  store_line_item_id?: string;

  @ApiPropertyOptional({ description: 'Same meaning as the Idempotency-Key header: a repeat returns the first response', maxLength: IDEMPOTENCY_KEY_MAX_LENGTH, example: 'order_5001_line_9001' })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(IDEMPOTENCY_KEY_MAX_LENGTH)
  idempotency_key?: string;
}
