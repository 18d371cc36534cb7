import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

export class RedeliverEventDto {
  @ApiPropertyOptional({
    description: 'Send only to this endpoint (subscribed or not); default: every enabled endpoint subscribed to the type',
    example: 'we_01jd8x3k2m4n5p6q7r8s9t0v1w',
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  endpoint_id?: string;
}
