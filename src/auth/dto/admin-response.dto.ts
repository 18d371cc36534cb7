import { API_KEY_SECRET_LENGTH, DISPLAY_PREFIX_LENGTH } from '../api-key-format';
import { ApiProperty } from '@nestjs/swagger';
import { PLANS } from '../merchant.entity';
import { API_MODES } from '../../database/tenant';
import { SCOPE_CHOICES } from '../scopes';

/** A merchant, as the admin API and the CLI show it. */
export class MerchantResponseDto {
  @ApiProperty({ description: 'Merchant id', example: 'mer_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({ description: 'Merchant name', example: 'Acme Digital' })
  name: string;

  @ApiProperty({ description: 'Plan', enum: PLANS, example: 'free' })
  plan: string;

  @ApiProperty({ description: 'Creation time', example: '2026-11-22T13:04:41.123Z' })
  created_at: string;
}

/** An API key without its secret, as the admin API and the CLI show it. */
export class ApiKeyResponseDto {
  @ApiProperty({ description: 'API key id', example: 'key_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({ description: 'First 12 characters of the key, to recognise it', minLength: DISPLAY_PREFIX_LENGTH, maxLength: DISPLAY_PREFIX_LENGTH, example: 'eh_test_4fGh' })
  prefix: string;

  @ApiProperty({ description: 'Mode', enum: API_MODES, example: 'test' })
  mode: string;

  @ApiProperty({ description: 'Scopes, or ["*"]', type: [String], enum: SCOPE_CHOICES, maxItems: SCOPE_CHOICES.length, example: ['entitlements:read'] })
  scopes: string[];

  @ApiProperty({ description: 'Label', type: String, nullable: true, example: 'checkout backend' })
  name: string | null;

  @ApiProperty({ description: 'Creation time', example: '2026-11-22T13:04:41.123Z' })
  created_at: string;

  @ApiProperty({ description: 'Last authenticated use (written at most once a minute)', type: String, nullable: true, example: null })
  last_used_at: string | null;

  @ApiProperty({ description: 'When the key was revoked; null while it works', type: String, nullable: true, example: null })
  revoked_at: string | null;
}

/** `eh_live_` or `eh_test_` and the secret characters. */
const API_KEY_MAX_LENGTH = 'eh_live_'.length + API_KEY_SECRET_LENGTH;

export class CreatedApiKeyResponseDto extends ApiKeyResponseDto {
  @ApiProperty({ description: 'The secret key; shown only in this response', maxLength: API_KEY_MAX_LENGTH, example: 'eh_test_4fGhJ2kL9mN0pQ3rS6tV8wX1yZ5aB7cD0eF2gH4i' })
  key: string;
}
