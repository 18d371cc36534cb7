import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PaginationQueryDto } from '../../pagination/pagination-query.dto';
import { STORE_ID_MAX_LENGTH } from '../../validation/input-bounds';

/** GET /v1/subscriptions: exactly one of customer_id / store_customer_id (examples in the text, see entitlement-query.dto.ts). */
export class ListSubscriptionsQueryDto extends PaginationQueryDto {
  @ApiPropertyOptional({ description: 'Customer id (one of customer_id / store_customer_id), e.g. cus_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  @IsOptional()
  @IsString()
  @MaxLength(STORE_ID_MAX_LENGTH)
  customer_id?: string;

  @ApiPropertyOptional({ description: 'Customer id in the e-commerce platform, e.g. store_cust_1001' })
  @IsOptional()
  @IsString()
  @MaxLength(STORE_ID_MAX_LENGTH)
  store_customer_id?: string;
}
