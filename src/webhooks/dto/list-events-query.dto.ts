import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { EVENT_TYPES } from '../../database/domain-event';
import { PaginationQueryDto } from '../../pagination/pagination-query.dto';
import { IsIsoTimestamp } from '../../validation/iso-timestamp';

export class ListEventsQueryDto extends PaginationQueryDto {
  // No examples on the filters: Swagger UI pre-fills them, and "Try it out" would list only a day long past.
  @ApiPropertyOptional({ description: 'Only events of this type, e.g. entitlement.revoked', enum: EVENT_TYPES })
  @IsOptional()
  @IsIn(EVENT_TYPES, { message: `type must be one of ${EVENT_TYPES.join(', ')}` })
  type?: string;

  @ApiPropertyOptional({ description: 'Only events created strictly after this time (ISO 8601), e.g. 2026-11-22T00:00:00Z' })
  @IsOptional()
  @IsIsoTimestamp()
  created_after?: string;

  @ApiPropertyOptional({ description: 'Only events created strictly before this time (ISO 8601), e.g. 2026-11-23T00:00:00Z' })
  @IsOptional()
  @IsIsoTimestamp()
  created_before?: string;
}
