import { ApiProperty } from '@nestjs/swagger';
import { IMPORT_STATUSES, MAX_SHOWN_ERRORS } from '../entitlement-import.entity';
import { IMPORT_ROW_ERROR_CODES } from '../import-row-parser';

/** One failed row. */
export class ImportRowErrorDto {
  @ApiProperty({ description: 'Data row number, counted from 1 (a CSV header row is not counted)', example: 3 })
  row: number;

  @ApiProperty({ description: 'Error code, as the API would answer for the same grant', enum: IMPORT_ROW_ERROR_CODES, example: 'PRODUCT_NOT_FOUND' })
  code: string;

  @ApiProperty({ description: 'What is wrong with the row', example: "No product with store_product_id 'sku_missing'" })
  message: string;
}

/** An entitlement import and its progress (DESIGN §10). */
export class ImportResponseDto {
  @ApiProperty({ description: 'Import id', example: 'imp_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({ description: 'queued (no batch yet), running, completed; failed is reserved for an import that cannot go on', enum: IMPORT_STATUSES, example: 'queued' })
  status: string;

  @ApiProperty({ description: 'Data rows sent', example: 3 })
  total_rows: number;

  @ApiProperty({ description: 'Rows processed so far (granted + skipped + failed)', example: 0 })
  processed_rows: number;

  @ApiProperty({ description: 'Rows that granted an entitlement (source import)', example: 0 })
  granted: number;

  @ApiProperty({ description: 'Rows whose customer already held an active entitlement for the product', example: 0 })
  skipped: number;

  @ApiProperty({ description: 'Rows refused (see errors)', example: 0 })
  failed: number;

  @ApiProperty({ description: 'The first 1,000 failed rows', type: [ImportRowErrorDto], maxItems: MAX_SHOWN_ERRORS })
  errors: ImportRowErrorDto[];

  @ApiProperty({ description: 'When the import was created', example: '2026-11-20T10:00:00.000Z' })
  created_at: string;

  @ApiProperty({ description: "Test mode: the import's test clock, which the customers its rows create are bound to; null when none", type: String, nullable: true, example: null })
  test_clock: string | null;

  @ApiProperty({ description: 'When its last row was processed', type: String, nullable: true, example: null })
  completed_at: string | null;
}
