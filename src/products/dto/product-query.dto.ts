import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { PaginationQueryDto } from '../../pagination/pagination-query.dto';
import { PRODUCT_STATUSES, ProductStatus } from '../product.entity';

const MAX_IDS = 100;
/** 100 ids of up to 64 characters and their commas. */
const MAX_IDS_PARAMETER_LENGTH = MAX_IDS * 65;
/** 1 to 100 comma-separated ids of 1 to 64 id characters each. */
const ID_LIST = new RegExp(`^[A-Za-z0-9_]{1,64}(,[A-Za-z0-9_]{1,64}){0,${MAX_IDS - 1}}$`);

/** GET /v1/products: every filter optional (examples in the text: Swagger UI would pre-fill them). */
export class ListProductsQueryDto extends PaginationQueryDto {
  @ApiPropertyOptional({
    description:
      'An exact product id, an exact store product id, or a part of the name (case-insensitive), e.g. prod_01jd8x3k2m4n5p6q7r8s9t0v1w, sku_ebook_42 or guide',
    minLength: 1,
    maxLength: 255,
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  search?: string;

  @ApiPropertyOptional({
    description:
      'Only these products: up to 100 product ids, comma-separated, e.g. prod_01jd8x3k2m4n5p6q7r8s9t0v1w,prod_01jd8x3k2m4n5p6q7r8s9t0v1x. ' +
      'One call names every product a page of other records refers to (order line items, subscriptions, files); unknown ids are left out',
    type: String,
    pattern: ID_LIST.source,
    maxLength: MAX_IDS_PARAMETER_LENGTH,
  })
  @IsOptional()
  @IsString()
  @Matches(ID_LIST, { message: `ids must be 1 to ${MAX_IDS} product ids separated by commas` })
  @MaxLength(MAX_IDS_PARAMETER_LENGTH)
  ids?: string;

  @ApiPropertyOptional({ description: 'Only products with this status', enum: PRODUCT_STATUSES })
  @IsOptional()
  @IsIn(PRODUCT_STATUSES, { message: `status must be one of ${PRODUCT_STATUSES.join(', ')}` })
  status?: ProductStatus;
}
