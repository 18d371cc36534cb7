import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { PaginationQueryDto } from '../../pagination/pagination-query.dto';
import { MAX_ACTIVATION_LIMIT } from '../../products/dto/product-request.dto';
import { ID_MAX_LENGTH } from '../../validation/input-bounds';

/** GET /v1/license-keys: every filter optional (examples in the text: Swagger UI would pre-fill them). */
export class ListLicenseKeysQueryDto extends PaginationQueryDto {
  @ApiPropertyOptional({ description: "Only the key of this entitlement, e.g. ent_01jd8x3k2m4n5p6q7r8s9t0v1w", minLength: 1, maxLength: ID_MAX_LENGTH })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(ID_MAX_LENGTH)
  entitlement_id?: string;

  @ApiPropertyOptional({ description: "Only this customer's keys, e.g. cus_01jd8x3k2m4n5p6q7r8s9t0v1w", minLength: 1, maxLength: ID_MAX_LENGTH })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(ID_MAX_LENGTH)
  customer_id?: string;

  @ApiPropertyOptional({ description: "Only this product's keys, e.g. prod_01jd8x3k2m4n5p6q7r8s9t0v1w", minLength: 1, maxLength: ID_MAX_LENGTH })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(ID_MAX_LENGTH)
  product_id?: string;
}

/** Body of PATCH /v1/license-keys/{id}. */
export class UpdateLicenseKeyDto {
  @ApiPropertyOptional({
    description: `This customer's own limit of devices at once, 1..${MAX_ACTIVATION_LIMIT}; null = unlimited; absent = unchanged. Lowering it below the devices active now releases none: new activations are refused until enough are deactivated`,
    type: Number,
    nullable: true,
    minimum: 1,
    maximum: MAX_ACTIVATION_LIMIT,
    example: 5,
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ACTIVATION_LIMIT)
  activation_limit?: number | null;
}
