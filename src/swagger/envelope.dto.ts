import { ApiProperty } from '@nestjs/swagger';

export class MetaDto {
  @ApiProperty({ description: 'Request identifier, also the X-Request-Id response header', example: 'req_5mJq2cV1xWb0aPz7' })
  request_id: string;

  @ApiProperty({ description: 'When the response was made, ISO 8601 UTC with milliseconds', example: '2026-11-22T13:04:41.123Z' })
  timestamp: string;
}

export class PaginationWithoutTotalDto {
  @ApiProperty({ description: 'Page size applied', example: 25 })
  limit: number;

  @ApiProperty({ description: 'Whether more results exist', example: false })
  has_more: boolean;

  @ApiProperty({ description: 'Opaque cursor for the next page; null when there is no more', type: String, nullable: true, example: null })
  next_cursor: string | null;
}

export class PaginationDto extends PaginationWithoutTotalDto {
  @ApiProperty({ description: 'Total matching items', example: 1 })
  total: number;
}
