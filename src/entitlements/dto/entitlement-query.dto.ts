import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PaginationQueryDto } from '../../pagination/pagination-query.dto';
import { ENTITLEMENT_SOURCES, ENTITLEMENT_STATUSES, EntitlementSource, EntitlementStatus } from '../entitlement.entity';
import { IsIsoTimestamp } from '../../validation/iso-timestamp';
import { ParsedByOwnPipe } from '../../validation/parsed-by-own-pipe.decorator';
import { STORE_ID_MAX_LENGTH } from '../../validation/input-bounds';

const lowercase = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.toLowerCase() : value);

/**
 * Query of GET /v1/entitlements/check; the service enforces exactly one of each pair. Swagger UI
 * pre-fills `example` values into "Try it out": only the store ids have one (a customer and a
 * product of the demo catalogue), the others sit in the descriptions, since a pre-filled pair would
 * make the first try a 400. Parsed by CheckQueryPipe (the hot path), which applies these
 * decorators' rules without class-validator.
 */
@ParsedByOwnPipe()
export class CheckEntitlementQueryDto {
  @ApiPropertyOptional({ description: 'Customer id (one of customer_id / store_customer_id), e.g. cus_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  @IsOptional()
  @IsString()
  @MaxLength(STORE_ID_MAX_LENGTH)
  customer_id?: string;

  @ApiPropertyOptional({ description: 'Customer id in the e-commerce platform', example: 'store_cust_1001' })
  @IsOptional()
  @IsString()
  @MaxLength(STORE_ID_MAX_LENGTH)
  store_customer_id?: string;

  @ApiPropertyOptional({ description: 'Product id (one of product_id / store_product_id), e.g. prod_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  @IsOptional()
  @IsString()
  @MaxLength(STORE_ID_MAX_LENGTH)
  product_id?: string;

  @ApiPropertyOptional({ description: 'Product id in the e-commerce platform', example: 'sku_ebook_42' })
  @IsOptional()
  @IsString()
  @MaxLength(STORE_ID_MAX_LENGTH)
  store_product_id?: string;

  @ApiPropertyOptional({
    description:
      'true adds `token` to the answer: a signed entitlement token when entitled (as POST /v1/entitlements/{id}/token ' +
      'returns), null when not',
    // On the wire a query boolean is the text true or false, which is what the parser accepts.
    type: Boolean,
  })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'include_token must be true or false' })
  include_token?: 'true' | 'false';
}

/** Query of GET /v1/entitlements: at least one filter is required (FILTER_REQUIRED). */
export class ListEntitlementsQueryDto extends PaginationQueryDto {
  @ApiPropertyOptional({ description: 'Filter: customer id, e.g. cus_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  @IsOptional()
  @IsString()
  @MaxLength(STORE_ID_MAX_LENGTH)
  customer_id?: string;

  // The one filter with an example, so "Try it out" lists the demo customer's entitlements as shipped.
  @ApiPropertyOptional({ description: 'Filter: the start of the customer id in the e-commerce platform (case-sensitive; an exact store id is its own start)', example: 'store_cust_1001' })
  @IsOptional()
  @IsString()
  @MaxLength(STORE_ID_MAX_LENGTH)
  store_customer_id?: string;

  @ApiPropertyOptional({ description: 'Filter: product id, e.g. prod_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  @IsOptional()
  @IsString()
  @MaxLength(STORE_ID_MAX_LENGTH)
  product_id?: string;

  @ApiPropertyOptional({
    description: 'Filter: effective status, upper or lower case (ACTIVE, EXPIRED, REVOKED, SUSPENDED, PENDING)',
    // The service lower-cases before checking, and returns lower case: both spellings are valid.
    enum: [...ENTITLEMENT_STATUSES.map((status) => status.toUpperCase()), ...ENTITLEMENT_STATUSES],
  })
  @IsOptional()
  @Transform(lowercase)
  @IsIn(ENTITLEMENT_STATUSES, { message: `status must be one of ${ENTITLEMENT_STATUSES.map((status) => status.toUpperCase()).join(', ')}` })
  status?: EntitlementStatus;

  @ApiPropertyOptional({
    description: 'Filter: source, upper or lower case',
    enum: [...ENTITLEMENT_SOURCES.map((source) => source.toUpperCase()), ...ENTITLEMENT_SOURCES],
  })
  @IsOptional()
  @Transform(lowercase)
  @IsIn(ENTITLEMENT_SOURCES, { message: `source must be one of ${ENTITLEMENT_SOURCES.map((source) => source.toUpperCase()).join(', ')}` })
  source?: EntitlementSource;

  @ApiPropertyOptional({ description: 'Filter: granted at or after this instant (ISO 8601), e.g. 2026-01-01T00:00:00Z' })
  @IsOptional()
  @IsIsoTimestamp()
  granted_after?: string;

  @ApiPropertyOptional({ description: 'Filter: granted strictly before this instant (ISO 8601), e.g. 2027-01-01T00:00:00Z' })
  @IsOptional()
  @IsIsoTimestamp()
  granted_before?: string;
}
