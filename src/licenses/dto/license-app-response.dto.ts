import { ApiProperty } from '@nestjs/swagger';
import { LicenseActivationResponseDto } from '../../license-records/dto/license-key-response.dto';
import { ENTITLEMENT_STATUSES_FOR_LICENSES } from '../../license-records/license-status';

/** What validate answers, by precedence: the entitlement's status first, then this device. */
export const VALIDATION_CODES = ['VALID', 'NOT_ACTIVATED', 'EXPIRED', 'SUSPENDED', 'REVOKED', 'PENDING'] as const;
export type ValidationCode = (typeof VALIDATION_CODES)[number];

/** A license as its app sees it (no customer or entitlement ids: the key is all the app holds). */
export class LicenseSummaryDto {
  @ApiProperty({ description: 'License key id', example: 'lic_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({ description: 'The product it licenses', example: 'prod_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  product_id: string;

  @ApiProperty({ description: "The product's id in the store", type: String, nullable: true, example: 'sku_desktop_app' })
  store_product_id: string | null;

  @ApiProperty({ description: "The entitlement's effective status", enum: ENTITLEMENT_STATUSES_FOR_LICENSES, example: 'active' })
  status: string;

  @ApiProperty({ description: "The entitlement's expiry; null = none", type: String, nullable: true, example: null })
  expires_at: string | null;

  @ApiProperty({ description: 'Devices it may be active on at once; null = unlimited', type: Number, nullable: true, example: 3 })
  activation_limit: number | null;

  @ApiProperty({ description: 'Devices it is active on now', example: 1 })
  activations_count: number;
}

export class ValidateLicenseResponseDto {
  @ApiProperty({ description: 'true only when code is VALID', example: true })
  valid: boolean;

  @ApiProperty({
    description:
      'VALID: active (and, when a fingerprint was sent, activated on it); NOT_ACTIVATED: active but not on this fingerprint; EXPIRED, SUSPENDED, REVOKED, PENDING: the entitlement is not active',
    enum: VALIDATION_CODES,
    example: 'VALID',
  })
  code: ValidationCode;

  @ApiProperty({ description: 'The license', type: LicenseSummaryDto })
  license: LicenseSummaryDto;

  // OpenAPI 3.0 ignores `nullable` beside a $ref, so the shape is spelled inline (as the check's entitlement is).
  @ApiProperty({
    description: "The fingerprint's activation; null when none was sent or it is not activated",
    type: 'object',
    nullable: true,
    required: ['id', 'license_key_id', 'fingerprint', 'name', 'metadata', 'created_at', 'last_seen_at'],
    properties: {
      id: { type: 'string', description: 'Activation id', example: 'act_01jd8x3k2m4n5p6q7r8s9t0v1w' },
      license_key_id: { type: 'string', description: 'The license key', example: 'lic_01jd8x3k2m4n5p6q7r8s9t0v1w' },
      fingerprint: { type: 'string', description: "The device's fingerprint", example: 'machine-4f9a2c' },
      name: { type: 'string', nullable: true, description: 'A name for people', example: "Ada's MacBook" },
      metadata: { type: 'object', additionalProperties: true, description: 'Arbitrary JSON object the app sent', example: { os: 'macOS 15' } },
      created_at: { type: 'string', format: 'date-time', description: 'When it was activated', example: '2026-11-22T13:04:41.123Z' },
      last_seen_at: { type: 'string', format: 'date-time', description: 'The last activate or heartbeat', example: '2026-11-22T13:04:41.123Z' },
    },
  })
  activation: LicenseActivationResponseDto | null;
}

export class ActivateLicenseResponseDto {
  @ApiProperty({ description: 'The activation (the same one when this fingerprint was already active)', type: LicenseActivationResponseDto })
  activation: LicenseActivationResponseDto;

  @ApiProperty({
    description:
      'A signed token (EdDSA, verify against GET /.well-known/jwks.json, DESIGN §12) for running offline until its exp: claims iss, aud ({merchant id}:{live|test}), sub (the customer id), license_id, fingerprint, activation_id, product_id, store_product_id. Check that fingerprint is this machine\'s',
    example: 'eyJhbGciOiJFZERTQSIsImtpZCI6Ii4uLiIsInR5cCI6IkpXVCJ9.eyJsaWNlbnNlX2lkIjoibGljXy4uLiJ9.c2lnbmF0dXJl',
  })
  license_file: string;
}

export class HeartbeatResponseDto {
  @ApiProperty({ description: 'The activation, last_seen_at now', type: LicenseActivationResponseDto })
  activation: LicenseActivationResponseDto;
}

export class DeactivateLicenseResponseDto {
  @ApiProperty({ description: 'The released activation', example: 'act_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  activation_id: string;

  @ApiProperty({ description: 'Always true', example: true })
  deactivated: boolean;
}

export class DeletedActivationResponseDto {
  @ApiProperty({ description: 'The deleted activation', example: 'act_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({ description: 'Always true', example: true })
  deleted: boolean;
}
