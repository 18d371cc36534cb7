import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { API_MODES, ApiMode } from '../../database/tenant';
import { SCOPES } from '../scopes';

/** Body of creating an API key: the admin API's and the dashboard's (auth owns API keys). */
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
