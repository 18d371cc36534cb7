import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PaginationQueryDto } from '../../pagination/pagination-query.dto';
import { ID_MAX_LENGTH } from '../../validation/input-bounds';

export const DELIVERY_OUTCOMES = ['succeeded', 'failed'] as const;

/** GET /v1/webhook-deliveries: every filter optional. */
export class ListWebhookDeliveriesQueryDto extends PaginationQueryDto {
  @ApiPropertyOptional({ description: 'Only attempts to this endpoint (404 WEBHOOK_ENDPOINT_NOT_FOUND when it is not one of yours), e.g. we_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  @IsOptional()
  @IsString()
  @MaxLength(ID_MAX_LENGTH)
  endpoint_id?: string;

  @ApiPropertyOptional({ description: 'Only attempts that succeeded (a 2xx answer) or failed (any other answer, or none)', enum: DELIVERY_OUTCOMES })
  @IsOptional()
  @IsIn(DELIVERY_OUTCOMES)
  status?: (typeof DELIVERY_OUTCOMES)[number];
}
