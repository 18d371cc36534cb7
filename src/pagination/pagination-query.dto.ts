import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

/** limit and cursor, shared by every list route; outside 1..100 is a 400, never clamped. */
export class PaginationQueryDto {
  @ApiPropertyOptional({ description: 'Page size, 1 to 100', default: DEFAULT_PAGE_SIZE, minimum: 1, maximum: MAX_PAGE_SIZE, example: 25 })
  @IsOptional()
  // Decimal digits only: Number() would read `1e1` as 10 and `0x10` as 16.
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^[0-9]{1,9}$/.test(value) ? Number(value) : value))
  @IsInt({ message: 'limit must be an integer from 1 to 100' })
  @Min(1, { message: 'limit must be an integer from 1 to 100' })
  @Max(MAX_PAGE_SIZE, { message: 'limit must be an integer from 1 to 100' })
  limit?: number;

  @ApiPropertyOptional({ description: 'Opaque cursor from pagination.next_cursor of the previous page' })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  cursor?: string;
}
