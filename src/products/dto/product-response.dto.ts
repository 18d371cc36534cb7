import { ApiProperty } from '@nestjs/swagger';
import { DELIVERY_METHODS, ENTITLEMENT_TYPES, PRODUCT_STATUSES } from '../product.entity';
import { MAX_FILE_IDS, MAX_INCLUDED_PRODUCTS, MAX_STORE_VARIANT_IDS } from './product-request.dto';

export class FulfillmentConfigResponseDto {
  @ApiProperty({ description: 'How access is delivered', enum: DELIVERY_METHODS, example: 'FILE' })
  delivery_method: string;

  @ApiProperty({ description: 'Files delivered by this product (FILE)', type: [String], maxItems: MAX_FILE_IDS, example: ['file_01jd8x3k2m4n5p6q7r8s9t0v1w'] })
  file_ids: string[];

  @ApiProperty({ description: 'Where access is given (URL)', type: String, nullable: true, example: null })
  access_url: string | null;

  @ApiProperty({ description: 'What the customer is told (INSTRUCTIONS)', type: String, nullable: true, example: null })
  access_instructions: string | null;
}

export class LicenseConfigResponseDto {
  @ApiProperty({ description: 'Devices one key may be active on at once (a key may have its own); null = unlimited', type: Number, nullable: true, example: 3 })
  activation_limit: number | null;

  @ApiProperty({ description: 'Seconds without a heartbeat after which an activation is released; null = never', type: Number, nullable: true, example: null })
  activation_ttl_seconds: number | null;
}

/** The list shape of the reference. */
export class ProductListItemDto {
  @ApiProperty({ description: 'Product id', example: 'prod_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({ description: 'Product id in the e-commerce platform', type: String, nullable: true, example: 'sku_ebook_42' })
  store_product_id: string | null;

  @ApiProperty({ description: 'Product name', example: 'The Field Guide (ebook)' })
  name: string;

  @ApiProperty({ description: 'Description', example: 'PDF and EPUB editions' })
  description: string;

  @ApiProperty({ description: 'What is granted', enum: ENTITLEMENT_TYPES, example: 'permanent' })
  entitlement_type: string;

  @ApiProperty({ description: 'Days of access from the grant (time_limited)', type: Number, nullable: true, example: null })
  access_duration_days: number | null;

  @ApiProperty({ description: 'Uses granted (usage_limited)', type: Number, nullable: true, example: null })
  usage_limit: number | null;

  @ApiProperty({ description: 'Product status', enum: PRODUCT_STATUSES, example: 'active' })
  status: string;

  @ApiProperty({ description: 'Creation time', example: '2026-11-22T13:04:41.123Z' })
  created_at: string;
}

/** The single-read shape: the list shape plus variants, metadata, fulfillment and updated_at. */
export class ProductResponseDto extends ProductListItemDto {
  @ApiProperty({ description: 'Variant ids in the e-commerce platform', type: [String], maxItems: MAX_STORE_VARIANT_IDS, example: [] })
  store_variant_ids: string[];

  @ApiProperty({ description: 'Products this bundle grants with it, in order ([] when the product is not a bundle)', type: [String], maxItems: MAX_INCLUDED_PRODUCTS, example: [] })
  included_product_ids: string[];

  @ApiProperty({ description: 'Arbitrary JSON object', type: 'object', additionalProperties: true, example: {} })
  metadata: Record<string, unknown>;

  // OpenAPI 3.0 ignores `nullable` beside a $ref, so the shape is spelled inline; LicenseConfigResponseDto stays the TypeScript type.
  @ApiProperty({
    description: 'License keys its grants get (DESIGN §18); null = none',
    type: 'object',
    nullable: true,
    required: ['activation_limit', 'activation_ttl_seconds'],
    properties: {
      activation_limit: { type: 'integer', nullable: true, description: 'Devices one key may be active on at once (a key may have its own); null = unlimited', example: 3 },
      activation_ttl_seconds: { type: 'integer', nullable: true, description: 'Seconds without a heartbeat after which an activation is released; null = never', example: null },
    },
  })
  license: LicenseConfigResponseDto | null;

  @ApiProperty({ description: 'How access is delivered', type: FulfillmentConfigResponseDto })
  fulfillment_config: FulfillmentConfigResponseDto;

  @ApiProperty({ description: 'Last change', example: '2026-11-22T13:04:41.123Z' })
  updated_at: string;
}
