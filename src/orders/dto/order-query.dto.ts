import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PaginationQueryDto } from '../../pagination/pagination-query.dto';
import { STORE_ID_MAX_LENGTH } from '../../validation/input-bounds';

/** GET /v1/orders: one of customer_id and store_customer_id is required. */
export class ListOrdersQueryDto extends PaginationQueryDto {
  @ApiPropertyOptional({ description: 'Orders of this customer', example: 'cus_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  @IsOptional()
  @IsString()
  @MaxLength(STORE_ID_MAX_LENGTH)
  customer_id?: string;

  @ApiPropertyOptional({ description: 'Orders of the customer with this store id', example: 'cust_8841' })
  @IsOptional()
  @IsString()
  @MaxLength(STORE_ID_MAX_LENGTH)
  store_customer_id?: string;
}
