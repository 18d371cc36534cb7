import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsString, MaxLength, MinLength } from 'class-validator';
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
