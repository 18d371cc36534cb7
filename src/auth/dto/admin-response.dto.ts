import { API_KEY_SECRET_LENGTH, DISPLAY_PREFIX_LENGTH } from '../api-key-format';
import { ApiProperty } from '@nestjs/swagger';
import { PLANS } from '../merchant.entity';
import { API_MODES } from '../../database/tenant';
import { SCOPE_CHOICES } from '../scopes';

/** A merchant's own limits as set through the admin API; null: the plan's. */
export class MerchantOwnLimitsResponseDto {
  @ApiProperty({ description: 'Largest file, in bytes; null: the plan\'s', type: Number, nullable: true, example: null })
  max_file_size_bytes: number | null;

  @ApiProperty({ description: 'Storage quota, in bytes; null: the plan\'s', type: Number, nullable: true, example: null })
  storage_bytes: number | null;

  @ApiProperty({ description: 'Monthly included bandwidth, in bytes; null: the plan\'s', type: Number, nullable: true, example: null })
  bandwidth_bytes: number | null;
}

/** A merchant, as the admin API and the CLI show it. */
export class MerchantResponseDto {
  @ApiProperty({ description: 'Merchant id', example: 'mer_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({ description: 'Merchant name', example: 'Acme Digital' })
  name: string;

  @ApiProperty({ description: 'Plan', enum: PLANS, example: 'free' })
  plan: string;

  @ApiProperty({ description: "The merchant's own limits; each null means the plan's", type: MerchantOwnLimitsResponseDto })
  limits: MerchantOwnLimitsResponseDto;

  @ApiProperty({ description: "The merchant's own overage price per GiB in minor units; null: the plan's (OVERAGE_PRICES)", type: Number, nullable: true, example: null })
  overage_price_per_gib: number | null;

  @ApiProperty({ description: 'Stripe customer that live statements are reported to; null: none', type: String, nullable: true, example: null })
  stripe_customer_id: string | null;

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
