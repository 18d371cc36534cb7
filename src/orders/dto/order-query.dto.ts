import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { PaginationQueryDto } from '../../pagination/pagination-query.dto';

/** GET /v1/orders: every filter optional; both customer filters must name the same customer. */
export class ListOrdersQueryDto extends PaginationQueryDto {
  @ApiPropertyOptional({ description: 'Orders of this customer', example: 'cus_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  customer_id?: string;

  @ApiPropertyOptional({ description: 'Orders of the customer with this store id', example: 'cust_8841' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  store_customer_id?: string;

  @ApiPropertyOptional({ description: 'An exact order id or an exact store order id, e.g. order_1001', minLength: 1, maxLength: 255 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  search?: string;
}
