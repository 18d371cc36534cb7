import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsIsoTimestamp } from '../../validation/iso-timestamp';
import { USAGE_LIMIT_MAX } from '../../validation/input-bounds';

/** Body of revoke and suspend. */
export class EntitlementReasonDto {
  @ApiPropertyOptional({ description: 'Why; stored as revocation_reason / suspension_reason', maxLength: 1000, example: 'Refunded order' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  reason?: string;
}

/** Body of reactivate: optionally extend the expiry or the usage limit in the same step. */
export class ReactivateEntitlementDto {
  @ApiPropertyOptional({ description: 'New expiry (must be in the future); null removes the expiry', type: String, nullable: true, example: '2030-06-30T00:00:00Z' })
  @IsOptional()
  @IsIsoTimestamp()
  expires_at?: string | null;

  @ApiPropertyOptional({ description: 'New usage limit (must exceed usage_count); null means unlimited', type: Number, nullable: true, minimum: 1, example: 20 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(USAGE_LIMIT_MAX)
  usage_limit?: number | null;
}

/** Body of POST /v1/entitlements/{id}/usage. */
export class RecordUsageDto {
  @ApiPropertyOptional({ description: 'Uses to record', default: 1, minimum: 1, maximum: 1_000_000, example: 1 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  quantity?: number;
}
