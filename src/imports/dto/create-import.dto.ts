import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/**
 * One row of an import (JSON form; a CSV's header names the same columns). Documentation only: the
 * body is read by importRowBatches and each row is checked when it is processed, so one bad row
 * fails alone, with its row number, instead of refusing the whole import.
 */
export class ImportRowDto {
  @ApiPropertyOptional({ description: 'Existing customer id (one of customer_id / store_customer_id)' })
  customer_id?: string;

  @ApiPropertyOptional({ description: 'Customer id in the e-commerce platform; the customer is created if new', example: 'store_cust_1001' })
  store_customer_id?: string;

  @ApiPropertyOptional({ description: 'Product id (one of product_id / store_product_id)' })
  product_id?: string;

  @ApiPropertyOptional({ description: 'Product id in the e-commerce platform', example: 'sku_ebook_42' })
  store_product_id?: string;

  @ApiPropertyOptional({
    description: 'When access ends (future); default from a time_limited product. An empty string is an absent value, as an empty CSV cell is',
    example: '2030-01-15T10:30:00Z',
  })
  expires_at?: string;

  @ApiPropertyOptional({ description: "Maximum uses, an integer ≥ 1 (in CSV its digits); default from a usage_limited product", type: 'integer', minimum: 1, example: 10 })
  usage_limit?: number;

  @ApiPropertyOptional({ description: 'Order id in the e-commerce platform', example: 'legacy_order_77' })
  store_order_id?: string;

  @ApiPropertyOptional({ description: 'A JSON object (in CSV its JSON text), at most 16 KiB', type: 'object', additionalProperties: true, example: { migrated_from: 'legacy' } })
  metadata?: Record<string, unknown>;
}

/** JSON body of POST /v1/entitlement-imports. */
export class CreateImportDto {
  @ApiProperty({ description: '1 to 100,000 rows; an empty value is an absent one', type: [ImportRowDto] })
  rows: ImportRowDto[];
}
