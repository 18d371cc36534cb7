import { ApiProperty } from '@nestjs/swagger';
import { ENTITLEMENT_STATUSES } from '../../entitlements/entitlement.entity';
import { SUBSCRIPTION_STATUSES } from '../subscription.entity';

/** A store subscription and the state of its subscription_linked entitlement (DESIGN §10). */
export class SubscriptionResponseDto {
  @ApiProperty({ description: 'Subscription id', example: 'sub_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({ description: 'Subscription id in the e-commerce platform', example: 'store_sub_3001' })
  store_subscription_id: string;

  @ApiProperty({ description: 'Customer id', example: 'cus_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  customer_id: string;

  @ApiProperty({ description: 'Customer id in the e-commerce platform', example: 'store_cust_1001' })
  store_customer_id: string;

  @ApiProperty({ description: "Test mode: the test clock the subscription's customer is bound to (events about it carry data.test_clock); null when unbound", type: String, nullable: true, example: null })
  test_clock: string | null;

  @ApiProperty({ description: 'Product id (a subscription_linked product)', example: 'prod_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  product_id: string;

  @ApiProperty({ description: "The product's name, as it is now", example: 'Pro (monthly)' })
  product_name: string;

  @ApiProperty({ description: "The store's status as last applied", enum: SUBSCRIPTION_STATUSES, example: 'active' })
  status: string;

  @ApiProperty({ description: 'End of the paid period', type: String, nullable: true, example: '2027-02-01T00:00:00.000Z' })
  current_period_end: string | null;

  @ApiProperty({ description: 'Whether the subscription ends at current_period_end', example: false })
  cancel_at_period_end: boolean;

  @ApiProperty({ description: "The store's time of the last applied state", type: String, nullable: true, example: '2026-11-20T10:00:00.000Z' })
  store_updated_at: string | null;

  @ApiProperty({ description: 'The subscription_linked entitlement; null while none was granted (first seen canceled)', type: String, nullable: true, example: 'ent_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  entitlement_id: string | null;

  @ApiProperty({ description: "The entitlement's effective status", enum: ENTITLEMENT_STATUSES, type: String, nullable: true, example: 'active' })
  entitlement_status: string | null;

  @ApiProperty({ description: 'False when this put was older than the last applied one (store_updated_at) and changed nothing; true on reads', example: true })
  applied: boolean;

  @ApiProperty({ description: 'When the subscription was first reported', example: '2026-11-20T10:00:00.000Z' })
  created_at: string;

  @ApiProperty({ description: 'When it last changed', example: '2026-11-20T10:00:00.000Z' })
  updated_at: string;
}
