import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { PaginationQueryDto } from '../../pagination/pagination-query.dto';
import { STORE_ID_MAX_LENGTH } from '../../validation/input-bounds';

/** GET /v1/orders: every filter optional; both customer filters must name the same customer. */
export class ListOrdersQueryDto extends PaginationQueryDto {
  @ApiPropertyOptional({ description: 'Orders of this customer', example: 'cus_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  @IsOptional()
  @IsString()
  @MaxLength(STORE_ID_MAX_LENGTH)
  customer_id?: string;

  @ApiPropertyOptional({ description: 'Orders of the customers whose store id starts with this (case-sensitive; an exact store id is its own start)', example: 'cust_8841' })
  @IsOptional()
  @IsString()
  @MaxLength(STORE_ID_MAX_LENGTH)
  store_customer_id?: string;

  @ApiPropertyOptional({ description: 'An exact order id or an exact store order id, e.g. order_1001', minLength: 1, maxLength: 255 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  search?: string;
}
