import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ENTITLEMENT_SOURCES, ENTITLEMENT_STATUSES } from '../entitlement.entity';

const EXAMPLE_METADATA = { order_note: 'gift' };

/** The reference's Entitlement table: the fields of both the list and the single-read shapes. */
export class EntitlementFieldsDto {
  @ApiProperty({ description: 'Entitlement id', example: 'ent_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({ description: 'Customer id', example: 'cus_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  customer_id: string;

  @ApiProperty({ description: 'Customer id in the e-commerce platform', example: 'store_cust_1001' })
  store_customer_id: string;

  @ApiProperty({ description: 'Product id', example: 'prod_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  product_id: string;

  @ApiProperty({
    description: 'Effective status: an active entitlement whose expires_at has passed or whose uses are exhausted reads as expired',
    enum: ENTITLEMENT_STATUSES,
    example: 'active',
  })
  status: string;

  @ApiProperty({ description: 'When access was granted', example: '2026-01-15T10:30:00.000Z' })
  granted_at: string;

  @ApiProperty({ description: 'When access ends; null means no expiry', type: String, nullable: true, example: '2027-01-15T10:30:00.000Z' })
  expires_at: string | null;

  @ApiProperty({ description: 'When it was revoked', type: String, nullable: true, example: null })
  revoked_at: string | null;

  @ApiProperty({ description: 'Why it was revoked', type: String, nullable: true, example: null })
  revocation_reason: string | null;

  @ApiProperty({ description: 'Uses recorded so far', example: 0 })
  usage_count: number;

  @ApiProperty({ description: 'Maximum uses; null means unlimited', type: Number, nullable: true, example: null })
  usage_limit: number | null;

  @ApiProperty({ description: 'How it was granted (lowercase); api for the create endpoint', enum: ENTITLEMENT_SOURCES, example: 'api' })
  source: string;

  @ApiProperty({ description: 'Order id in the e-commerce platform', type: String, nullable: true, example: 'order_5001' })
  store_order_id: string | null;

  @ApiProperty({ description: 'Arbitrary JSON object', type: 'object', additionalProperties: true, example: EXAMPLE_METADATA })
  metadata: Record<string, unknown>;

  @ApiProperty({
    description: "Test mode: the test clock the customer is bound to (its frozen_time is this entitlement's now); null when unbound",
    type: String,
    nullable: true,
    example: null,
  })
  test_clock: string | null;

  @ApiProperty({ description: 'Creation time', example: '2026-01-15T10:30:00.000Z' })
  created_at: string;

  @ApiProperty({ description: 'Last change', example: '2026-01-15T10:30:00.000Z' })
  updated_at: string;
}

/**
 * The list shape (GET /v1/entitlements): the reference's fields and the product's name, read once
 * per page, so a list names its products without a call per row.
 */
export class EntitlementListItemDto extends EntitlementFieldsDto {
  @ApiProperty({ description: "The product's name, as it is now", example: 'The Field Guide (ebook)' })
  product_name: string;
}

/** The single-read shape, also returned by create and every operation and carried by events. */
export class EntitlementResponseDto extends EntitlementFieldsDto {
  @ApiProperty({ description: 'Order line item id in the e-commerce platform', type: String, nullable: true, example: 'line_9001' })
  store_line_item_id: string | null;

  @ApiProperty({ description: 'The entitlement this one derives from (bundles)', type: String, nullable: true, example: null })
  parent_entitlement_id: string | null;

  @ApiProperty({ description: 'When it was suspended (cleared on reactivation)', type: String, nullable: true, example: null })
  suspended_at: string | null;

  @ApiProperty({ description: 'Why it was suspended (cleared on reactivation)', type: String, nullable: true, example: null })
  suspension_reason: string | null;
}

/** The entitlement inside an access-check result. */
export class EntitlementCheckItemDto {
  @ApiProperty({ description: 'Entitlement id', example: 'ent_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({ description: 'Product id', example: 'prod_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  product_id: string;

  @ApiProperty({ description: 'Always active in a positive check', enum: ENTITLEMENT_STATUSES, example: 'active' })
  status: string;

  @ApiProperty({ description: 'When access was granted', example: '2026-01-15T10:30:00.000Z' })
  granted_at: string;

  @ApiProperty({ description: 'When access ends; null means no expiry', type: String, nullable: true, example: null })
  expires_at: string | null;

  @ApiProperty({ description: 'Arbitrary JSON object', type: 'object', additionalProperties: true, example: EXAMPLE_METADATA })
  metadata: Record<string, unknown>;

  @ApiProperty({ description: "How access is held: `bundle` through a bundle's child entitlement, `direct` otherwise", enum: ['direct', 'bundle'], example: 'direct' })
  access_type: string;
}

export class EntitlementCheckResponseDto {
  @ApiProperty({ description: 'Whether the customer may use the product now', example: true })
  entitled: boolean;

  // OpenAPI 3.0 ignores `nullable` beside a $ref (and linters refuse allOf without a type), so the
  // shape is spelled inline here; EntitlementCheckItemDto stays the one TypeScript type.
  @ApiProperty({
    description: 'The qualifying entitlement that lasts longest, or null',
    type: 'object',
    nullable: true,
    required: ['id', 'product_id', 'status', 'granted_at', 'expires_at', 'metadata', 'access_type'],
    properties: {
      id: { type: 'string', description: 'Entitlement id', example: 'ent_01jd8x3k2m4n5p6q7r8s9t0v1w' },
      product_id: { type: 'string', description: 'Product id', example: 'prod_01jd8x3k2m4n5p6q7r8s9t0v1w' },
      status: { type: 'string', enum: [...ENTITLEMENT_STATUSES], description: 'Always active in a positive check', example: 'active' },
      granted_at: { type: 'string', description: 'When access was granted', example: '2026-01-15T10:30:00.000Z' },
      expires_at: { type: 'string', nullable: true, description: 'When access ends; null means no expiry', example: null },
      metadata: { type: 'object', additionalProperties: true, description: 'Arbitrary JSON object', example: EXAMPLE_METADATA },
      access_type: {
        type: 'string',
        enum: ['direct', 'bundle'],
        description: "How access is held: `bundle` through a bundle's child entitlement, `direct` otherwise",
        example: 'direct',
      },
    },
  })
  entitlement: EntitlementCheckItemDto | null;

  @ApiPropertyOptional({
    description: 'Only with include_token=true: a signed entitlement token (verify it against /.well-known/jwks.json), null when not entitled',
    type: String,
    nullable: true,
    example: null,
  })
  token?: string | null;
}
