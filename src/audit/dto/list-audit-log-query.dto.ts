import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { PaginationQueryDto } from '../../pagination/pagination-query.dto';
import { IsIsoTimestamp } from '../../validation/iso-timestamp';

export class ListAuditLogQueryDto extends PaginationQueryDto {
  // No examples on the filters: Swagger UI pre-fills them, and "Try it out" would find nothing.
  @ApiPropertyOptional({ description: "Only rows of this actor: a user's or key's id, `admin` or `cli`, e.g. key_01jd8x3k2m4n5p6q7r8s9t0v1w", minLength: 1, maxLength: 255 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  actor_id?: string;

  @ApiPropertyOptional({ description: 'Only rows about this object, e.g. ent_01jd8x3k2m4n5p6q7r8s9t0v1w', minLength: 1, maxLength: 255 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  object_id?: string;

  @ApiPropertyOptional({ description: 'Only rows of this action (an operation id), e.g. entitlements.revoke', minLength: 1, maxLength: 255 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  action?: string;

  @ApiPropertyOptional({ description: 'Only rows created strictly after this time (ISO 8601), e.g. 2026-11-22T00:00:00Z' })
  @IsOptional()
  @IsIsoTimestamp()
  created_after?: string;

  @ApiPropertyOptional({ description: 'Only rows created strictly before this time (ISO 8601), e.g. 2026-11-23T00:00:00Z' })
  @IsOptional()
  @IsIsoTimestamp()
  created_before?: string;
}
