import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ID_MAX_LENGTH, STORE_ID_MAX_LENGTH, TIMESTAMP_MAX_LENGTH } from '../../validation/input-bounds';
import { MAX_IMPORT_ROWS } from '../import-body';
import { USAGE_LIMIT_MAX } from '../../validation/input-bounds';

/**
 * One row of an import (JSON form; a CSV's header names the same columns). Documentation only: the
 * body is read by importRowBatches and each row is checked when it is processed, so one bad row
 * fails alone, with its row number, instead of refusing the whole import.
 */
export class ImportRowDto {
  @ApiPropertyOptional({ description: 'Existing customer id (one of customer_id / store_customer_id)', maxLength: STORE_ID_MAX_LENGTH })
  customer_id?: string;

  @ApiPropertyOptional({ description: 'Customer id in the e-commerce platform; the customer is created if new', maxLength: STORE_ID_MAX_LENGTH, example: 'store_cust_2001' })
  store_customer_id?: string;

  @ApiPropertyOptional({ description: 'Product id (one of product_id / store_product_id)', maxLength: STORE_ID_MAX_LENGTH })
  product_id?: string;

  @ApiPropertyOptional({ description: 'Product id in the e-commerce platform', maxLength: STORE_ID_MAX_LENGTH, example: 'sku_ebook_42' })
  store_product_id?: string;

  @ApiPropertyOptional({
    description: 'When access ends (future); default from a time_limited product. An empty string is an absent value, as an empty CSV cell is',
    anyOf: [
      { type: 'string', format: 'date-time', maxLength: TIMESTAMP_MAX_LENGTH },
      { type: 'string', enum: [''] },
    ],
    example: '2030-01-15T10:30:00Z',
  })
  expires_at?: string;

  @ApiPropertyOptional({ description: "Maximum uses, an integer ≥ 1 (in CSV its digits); default from a usage_limited product", type: 'integer', minimum: 1, maximum: USAGE_LIMIT_MAX, example: 10 })
  usage_limit?: number;

  @ApiPropertyOptional({ description: 'Order id in the e-commerce platform', maxLength: STORE_ID_MAX_LENGTH, example: 'legacy_order_77' })
  store_order_id?: string;

  @ApiPropertyOptional({ description: 'A JSON object (in CSV its JSON text), at most 16 KiB', type: 'object', additionalProperties: true, example: { migrated_from: 'legacy' } })
  metadata?: Record<string, unknown>;
}

/** JSON body of POST /v1/entitlement-imports. */
export class CreateImportDto {
  @ApiProperty({ description: '1 to 100,000 rows; an empty value is an absent one', type: [ImportRowDto], minItems: 1, maxItems: MAX_IMPORT_ROWS })
  rows: ImportRowDto[];

  @ApiPropertyOptional({
    description:
      "Test mode: the import's test clock (from POST /v1/test-clocks, e.g. clock_01jd8x3k2m4n5p6q7r8s9t0v1w). Customers its rows create are bound to it; " +
      'a row naming an existing customer not bound to it fails with TEST_CLOCK_MISMATCH. (A CSV body names no clock: import bound customers as JSON)',
    maxLength: ID_MAX_LENGTH,
  })
  test_clock?: string;
}
