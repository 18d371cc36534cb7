import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { PaginationQueryDto } from '../../pagination/pagination-query.dto';
import { IsIsoTimestamp } from '../../validation/iso-timestamp';

/** GET /v1/customers: every filter optional (examples in the text: Swagger UI would pre-fill them). */
export class ListCustomersQueryDto extends PaginationQueryDto {
  @ApiPropertyOptional({
    description: 'An exact customer id, or the start of a store customer id (case-sensitive), e.g. cus_01jd8x3k2m4n5p6q7r8s9t0v1w or store_cust_10',
    minLength: 1,
    maxLength: 255,
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  search?: string;

  @ApiPropertyOptional({ description: 'Only customers created strictly after this time (ISO 8601), e.g. 2026-01-01T00:00:00Z' })
  @IsOptional()
  @IsIsoTimestamp()
  created_after?: string;

  @ApiPropertyOptional({ description: 'Only customers created strictly before this time (ISO 8601), e.g. 2027-01-01T00:00:00Z' })
  @IsOptional()
  @IsIsoTimestamp()
  created_before?: string;
}
