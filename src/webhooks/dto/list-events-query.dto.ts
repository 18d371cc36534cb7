import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional } from 'class-validator';
import { EVENT_TYPES } from '../../events/domain-event';
import { PaginationQueryDto } from '../../pagination/pagination-query.dto';

const ISO_MESSAGE = '$property must be an ISO 8601 date-time, e.g. 2026-11-22T10:30:00Z';

export class ListEventsQueryDto extends PaginationQueryDto {
  @ApiPropertyOptional({ description: 'Only events of this type', enum: EVENT_TYPES, example: 'entitlement.revoked' })
  @IsOptional()
  @IsIn(EVENT_TYPES, { message: `type must be one of ${EVENT_TYPES.join(', ')}` })
  type?: string;

  @ApiPropertyOptional({ description: 'Only events created strictly after this time (ISO 8601)', example: '2026-11-22T00:00:00Z' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: ISO_MESSAGE })
  created_after?: string;

  @ApiPropertyOptional({ description: 'Only events created strictly before this time (ISO 8601)', example: '2026-11-23T00:00:00Z' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: ISO_MESSAGE })
  created_before?: string;
}
