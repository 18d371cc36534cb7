import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsIn, IsInt, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { Plan, PLANS } from '../../auth/merchant.entity';
import { IsOptionalNotNull } from '../../validation/is-optional-not-null.decorator';

export class CreateMerchantDto {
  @ApiProperty({ description: 'Merchant name', example: 'Acme Digital', minLength: 1, maxLength: 200 })
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;

  @ApiProperty({ description: 'Plan', enum: PLANS, example: 'free' })
  @IsDefined()
  @IsIn(PLANS)
  plan: Plan;
}

export class UpdateMerchantDto {
  @ApiPropertyOptional({ description: 'Merchant name', example: 'Acme Digital Ltd', minLength: 1, maxLength: 200 })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ description: 'Plan', enum: PLANS, example: 'growth' })
  @IsOptionalNotNull()
  @IsIn(PLANS)
  plan?: Plan;
}

/** A merchant's own limits (DESIGN §17); each null restores the plan's, each absent stays as it is. */
export class MerchantLimitsDto {
  @ApiPropertyOptional({ description: "Largest file that may be declared, in bytes; null: the plan's", type: Number, nullable: true, minimum: 1, example: 10737418240 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  max_file_size_bytes?: number | null;

  @ApiPropertyOptional({ description: "Storage quota, in bytes; null: the plan's", type: Number, nullable: true, minimum: 1, example: 1099511627776 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  storage_bytes?: number | null;

  @ApiPropertyOptional({ description: "Bandwidth included per calendar month (UTC), in bytes; null: the plan's", type: Number, nullable: true, minimum: 1, example: 5497558138880 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  bandwidth_bytes?: number | null;
}

/** Body of PATCH /admin/v1/merchants/{id}: name, plan and the merchant's own billing terms. */
export class UpdateMerchantTermsDto extends UpdateMerchantDto {
  @ApiPropertyOptional({ description: "The merchant's own limits (an enterprise contract); a field set to null restores the plan's", type: MerchantLimitsDto })
  @IsOptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => MerchantLimitsDto)
  limits?: MerchantLimitsDto;

  @ApiPropertyOptional({
    description: "Overage price in minor units of OVERAGE_CURRENCY per GiB beyond the included bandwidth; null: the plan's (OVERAGE_PRICES)",
    type: Number,
    nullable: true,
    minimum: 0,
    example: 4,
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1_000_000_000)
  overage_price_per_gib?: number | null;

  @ApiPropertyOptional({ description: 'Stripe customer that live statements are reported to (STRIPE_SECRET_KEY set); null: not reported', type: String, nullable: true, example: 'cus_Q2x7Jm1bT0aZyK', maxLength: 254 })
  @IsOptional()
  @IsString()
  @MaxLength(254)
  @Matches(/^cus_[A-Za-z0-9]{1,250}$/, { message: 'stripe_customer_id must be a Stripe customer id (cus_…)' })
  stripe_customer_id?: string | null;
}
