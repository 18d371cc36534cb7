import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { API_MODES, ApiMode } from '../../database/tenant';
import { Plan, PLANS } from '../../auth/merchant.entity';
import { SCOPES } from '../../auth/scopes';
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

export class CreateApiKeyDto {
  @ApiProperty({ description: 'Mode of the key and of every record it creates', enum: API_MODES, example: 'test' })
  @IsDefined()
  @IsIn(API_MODES)
  mode: ApiMode;

  @ApiProperty({
    description: `Scopes granted, or ["*"] for all: ${SCOPES.join(', ')}`,
    type: [String],
    example: ['entitlements:read', 'entitlements:write'],
  })
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(SCOPES.length + 1)
  @IsString({ each: true })
  scopes: string[];

  @ApiPropertyOptional({ description: 'A label for people', example: 'checkout backend', maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string;
}
