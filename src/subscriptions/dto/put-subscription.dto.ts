import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { IsIsoTimestamp } from '../../validation/iso-timestamp';
import { IsOptionalNotNull } from '../../validation/is-optional-not-null.decorator';
import { SUBSCRIPTION_STATUSES, SubscriptionStatus } from '../subscription.entity';
import { STORE_ID_MAX_LENGTH } from '../../validation/input-bounds';
import { TestClockField } from '../../test-clock-records/test-clock-field.decorator';


/**
 * Body of PUT /v1/subscriptions/store/{store_subscription_id}: the store's state of the
 * subscription. One of customer_id / store_customer_id and one of product_id / store_product_id /
 * store_variant_id are required on the first put; later puts may repeat them (unchanged) or leave
 * them out.
 */
export class PutSubscriptionDto {
  // Examples sit in the descriptions of the alternatives: Swagger UI pre-fills every example, and two ids of one pair are a 400.
  @ApiPropertyOptional({ description: 'Existing customer id, instead of store_customer_id (e.g. cus_01jd8x3k2m4n5p6q7r8s9t0v1w)' })
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

  @ApiPropertyOptional({ description: 'Product id of a subscription_linked product, instead of store_product_id / store_variant_id (e.g. prod_01jd8x3k2m4n5p6q7r8s9t0v1w)' })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(STORE_ID_MAX_LENGTH)
  product_id?: string;

  @ApiPropertyOptional({ description: 'Product id in the e-commerce platform', example: 'sku_pro_monthly' })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(STORE_ID_MAX_LENGTH)
  store_product_id?: string;

  @ApiPropertyOptional({ description: "A variant id listed in a product's store_variant_ids, instead of product_id / store_product_id (e.g. variant_pro_monthly_eur)" })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(STORE_ID_MAX_LENGTH)
  store_variant_id?: string;

  @ApiProperty({
    description: 'The store\'s status: active, trialing, past_due → entitlement active; paused → suspended; canceled → expired now',
    enum: SUBSCRIPTION_STATUSES,
    example: 'active',
  })
  @IsIn(SUBSCRIPTION_STATUSES)
  status: SubscriptionStatus;

  @ApiPropertyOptional({ description: 'End of the paid period; the entitlement expires then when cancel_at_period_end is true', type: String, nullable: true, example: '2027-02-01T00:00:00Z' })
  @IsOptional()
  @IsIsoTimestamp()
  current_period_end?: string | null;

  @ApiPropertyOptional({ description: 'The subscription ends at current_period_end (false on a first put that leaves it out; later puts keep the stored value)', example: false })
  @IsOptionalNotNull()
  @IsBoolean()
  cancel_at_period_end?: boolean;

  @ApiPropertyOptional({ description: "The store's time of this state; a put older than the last applied one changes nothing (applied: false)", example: '2026-11-20T10:00:00Z' })
  @IsOptionalNotNull()
  @IsIsoTimestamp()
  store_updated_at?: string;
}
