import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min, ValidateIf } from 'class-validator';
import { IsIsoTimestamp } from '../../validation/iso-timestamp';
import { IsMetadataObject } from '../../validation/metadata-object';
import { USAGE_LIMIT_MAX } from '../../validation/input-bounds';

/** Body of PATCH /v1/entitlements/{id}: only the fields present change. */
export class UpdateEntitlementDto {
  @ApiPropertyOptional({ description: 'New expiry, in the future; null removes the expiry', type: String, nullable: true, example: '2030-06-30T00:00:00Z' })
  @IsOptional()
  @IsIsoTimestamp()
  expires_at?: string | null;

  @ApiPropertyOptional({ description: 'Replaces the metadata object (at most 16 KiB serialized)', type: 'object', additionalProperties: true, example: { tier: 'gold' } })
  @ValidateIf((body: UpdateEntitlementDto) => body.metadata !== undefined)
  @IsMetadataObject()
  metadata?: Record<string, unknown>;

  @ApiPropertyOptional({ description: 'New usage limit, at least usage_count; null means unlimited', type: Number, nullable: true, minimum: 1, example: 20 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(USAGE_LIMIT_MAX)
  usage_limit?: number | null;
}
