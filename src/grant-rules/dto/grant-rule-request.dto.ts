import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsOptionalNotNull } from '../../validation/is-optional-not-null.decorator';
import { ID_MAX_LENGTH } from '../../validation/input-bounds';

const MAX_DURATION_DAYS = 36_500;

/** Body of POST /v1/grant-rules. */
export class CreateGrantRuleDto {
  @ApiProperty({ description: 'The product whose grant fires the rule (any source but rule)', example: 'prod_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  @IsDefined()
  @IsString()
  @MaxLength(ID_MAX_LENGTH)
  trigger_product_id: string;

  @ApiProperty({ description: 'The product the rule grants to the same customer (source rule), unless the customer already holds an active entitlement for it', example: 'prod_01jd8x3k2m4n5p6q7r8s9t0v1x' })
  @IsDefined()
  @IsString()
  @MaxLength(ID_MAX_LENGTH)
  grant_product_id: string;

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
