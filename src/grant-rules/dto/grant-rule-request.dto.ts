import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { IsOptionalNotNull } from '../../validation/is-optional-not-null.decorator';
import { ID_MAX_LENGTH, STORE_ID_MAX_LENGTH } from '../../validation/input-bounds';

const MAX_DURATION_DAYS = 36_500;

/**
 * Body of POST /v1/grant-rules. Each product is named by our id or by its store_product_id: exactly
 * one of trigger_product_id / trigger_store_product_id and one of grant_product_id /
 * grant_store_product_id (the service checks the pairs, as on a grant).
 */
export class CreateGrantRuleDto {
  // Examples of our ids sit in the descriptions: Swagger UI pre-fills every example, and two of one pair are a 400.
  @ApiPropertyOptional({ description: 'The product whose grant fires the rule (any source but rule), by our id (from POST or GET /v1/products), e.g. prod_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(ID_MAX_LENGTH)
  trigger_product_id?: string;

  @ApiPropertyOptional({ description: 'The trigger product by its store_product_id, instead of trigger_product_id', example: 'sku_ebook_42' })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(STORE_ID_MAX_LENGTH)
  trigger_store_product_id?: string;

  @ApiPropertyOptional({
    description:
      'The product the rule grants to the same customer (source rule), unless the customer already holds an active entitlement for it; by our id, e.g. prod_01jd8x3k2m4n5p6q7r8s9t0v1x',
  })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(ID_MAX_LENGTH)
  grant_product_id?: string;

  @ApiPropertyOptional({ description: 'The granted product by its store_product_id, instead of grant_product_id', example: 'sku_api_credits_100' })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(STORE_ID_MAX_LENGTH)
  grant_store_product_id?: string;

  @ApiPropertyOptional({ description: "Days of access the rule's grant gives; null or absent = the grant product's defaults", type: Number, nullable: true, minimum: 1, example: 30 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_DURATION_DAYS)
  access_duration_days?: number | null;
}

/** Body of PATCH /v1/grant-rules/{id}: only the fields sent change. */
export class UpdateGrantRuleDto {
  @ApiPropertyOptional({ description: 'false stops the rule firing (existing grants stay)', example: false })
  @IsOptionalNotNull()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ description: "Days of access later grants give; null = the grant product's defaults", type: Number, nullable: true, minimum: 1, example: 60 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_DURATION_DAYS)
  access_duration_days?: number | null;
}
