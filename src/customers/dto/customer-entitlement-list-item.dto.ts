import { ApiProperty } from '@nestjs/swagger';
import { ENTITLEMENT_SOURCES, ENTITLEMENT_STATUSES } from '../../entitlements/entitlement.entity';

/** The reference's customer entitlement list item, with the product's name (one read per page). */
export class CustomerEntitlementListItemDto {
  @ApiProperty({ description: 'Entitlement id', example: 'ent_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({ description: 'Product id', example: 'prod_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  product_id: string;

  @ApiProperty({ description: "The product's name, as it is now", example: 'The Field Guide (ebook)' })
  product_name: string;

  @ApiProperty({ description: 'Effective status (time/usage expiry applied at read time)', enum: ENTITLEMENT_STATUSES, example: 'active' })
  status: string;

  @ApiProperty({ description: 'When access was granted', example: '2026-01-15T10:30:00.000Z' })
  granted_at: string;

  @ApiProperty({ description: 'When access ends; null means no expiry', type: String, nullable: true, example: null })
  expires_at: string | null;

  @ApiProperty({ description: 'How it was granted (lowercase)', enum: ENTITLEMENT_SOURCES, example: 'api' })
  source: string;

  @ApiProperty({ description: 'Arbitrary JSON object', type: 'object', additionalProperties: true, example: { order_note: 'gift' } })
  metadata: Record<string, unknown>;
}
