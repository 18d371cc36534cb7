import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { PaginationQueryDto } from '../../pagination/pagination-query.dto';
import { SUBSCRIPTION_STATUSES, SubscriptionStatus } from '../subscription.entity';
import { STORE_ID_MAX_LENGTH } from '../../validation/input-bounds';

/** GET /v1/subscriptions: every filter optional, at most one of customer_id / store_customer_id (examples in the text, see entitlement-query.dto.ts). */
export class ListSubscriptionsQueryDto extends PaginationQueryDto {
  @ApiPropertyOptional({ description: 'Customer id (one of customer_id / store_customer_id), e.g. cus_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  @IsOptional()
  @IsString()
  @MaxLength(STORE_ID_MAX_LENGTH)
  customer_id?: string;

  @ApiPropertyOptional({ description: 'The start of the customer id in the e-commerce platform (case-sensitive; an exact store id is its own start), e.g. store_cust_1001' })
  @IsOptional()
  @IsString()
  @MaxLength(STORE_ID_MAX_LENGTH)
  store_customer_id?: string;

  @ApiPropertyOptional({ description: 'An exact subscription id or an exact store subscription id, e.g. store_sub_1001', minLength: 1, maxLength: STORE_ID_MAX_LENGTH })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(STORE_ID_MAX_LENGTH)
  search?: string;

  @ApiPropertyOptional({ description: "Only subscriptions in this store status", enum: SUBSCRIPTION_STATUSES })
  @IsOptional()
  @IsIn(SUBSCRIPTION_STATUSES, { message: `status must be one of ${SUBSCRIPTION_STATUSES.join(', ')}` })
  status?: SubscriptionStatus;
}
