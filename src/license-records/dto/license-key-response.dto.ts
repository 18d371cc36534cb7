import { ApiProperty } from '@nestjs/swagger';
import { ENTITLEMENT_STATUSES_FOR_LICENSES } from '../license-status';

export class LicenseKeyResponseDto {
  @ApiProperty({ description: 'License key id', example: 'lic_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({ description: 'The key the customer types into the app: 25 characters of Crockford base32 in five groups', example: 'K7Q2M-9XH4T-P3N8V-R6W1C-5J0DB' })
  key: string;

  @ApiProperty({ description: 'The entitlement it was issued with', example: 'ent_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  entitlement_id: string;

  @ApiProperty({ description: 'The customer', example: 'cus_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  customer_id: string;

  @ApiProperty({ description: 'The product', example: 'prod_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  product_id: string;

  @ApiProperty({ description: "The entitlement's effective status: the key is valid only while it is active", enum: ENTITLEMENT_STATUSES_FOR_LICENSES, example: 'active' })
  status: string;

  @ApiProperty({ description: 'Devices it may be active on at once; null = unlimited', type: Number, nullable: true, example: 3 })
  activation_limit: number | null;

  @ApiProperty({ description: 'Devices it is active on now', example: 1 })
  activations_count: number;

  @ApiProperty({ description: 'Seconds without a heartbeat after which an activation is released; null = never', type: Number, nullable: true, example: null })
  activation_ttl_seconds: number | null;

  @ApiProperty({ description: 'Creation time (the grant)', example: '2026-11-22T13:04:41.123Z' })
  created_at: string;
}

export class LicenseActivationResponseDto {
  @ApiProperty({ description: 'Activation id', example: 'act_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({ description: 'The license key it holds a seat of', example: 'lic_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  license_key_id: string;

  @ApiProperty({ description: "The device's fingerprint, as the app sent it", example: 'machine-4f9a2c' })
  fingerprint: string;

  @ApiProperty({ description: 'A name for people (e.g. the computer name)', type: String, nullable: true, example: "Ada's MacBook" })
  name: string | null;

  @ApiProperty({ description: 'Arbitrary JSON object the app sent', type: 'object', additionalProperties: true, example: { os: 'macOS 15' } })
  metadata: Record<string, unknown>;

  @ApiProperty({ description: "When it was activated (the customer's test clock time when bound to one)", example: '2026-11-22T13:04:41.123Z' })
  created_at: string;

  @ApiProperty({ description: 'The last activate or heartbeat', example: '2026-11-22T13:04:41.123Z' })
  last_seen_at: string;
}
