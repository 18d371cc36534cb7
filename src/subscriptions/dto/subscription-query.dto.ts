import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { PaginationQueryDto } from '../../pagination/pagination-query.dto';
import { SUBSCRIPTION_STATUSES, SubscriptionStatus } from '../subscription.entity';

/** GET /v1/subscriptions: every filter optional, at most one of customer_id / store_customer_id (examples in the text, see entitlement-query.dto.ts). */
export class ListSubscriptionsQueryDto extends PaginationQueryDto {
  @ApiPropertyOptional({ description: 'Customer id (one of customer_id / store_customer_id), e.g. cus_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  customer_id?: string;

  @ApiPropertyOptional({ description: 'Customer id in the e-commerce platform, e.g. store_cust_1001' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  store_customer_id?: string;

  @ApiPropertyOptional({ description: 'An exact subscription id or an exact store subscription id, e.g. store_sub_1001', minLength: 1, maxLength: 255 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  search?: string;

  @ApiPropertyOptional({ description: "Only subscriptions in this store status", enum: SUBSCRIPTION_STATUSES })
  @IsOptional()
  @IsIn(SUBSCRIPTION_STATUSES, { message: `status must be one of ${SUBSCRIPTION_STATUSES.join(', ')}` })
  status?: SubscriptionStatus;
}
