import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { IsOptionalNotNull } from '../../validation/is-optional-not-null.decorator';
import { IsMetadataObject } from '../../validation/metadata-object';

const KEY_MAX_LENGTH = 64;
const FINGERPRINT_MAX_LENGTH = 255;
const NAME_MAX_LENGTH = 255;

/** The key as typed: any case, dashes or spaces between its characters. */
class LicenseKeyField {
  @ApiProperty({ description: 'The license key as the customer typed it (any case; dashes and spaces ignored)', maxLength: KEY_MAX_LENGTH, example: 'K7Q2M-9XH4T-P3N8V-R6W1C-5J0DB' })
  @IsDefined()
  @IsString()
  @MaxLength(KEY_MAX_LENGTH)
  key: string;
}

/** Body of POST /v1/licenses/validate. */
export class ValidateLicenseDto extends LicenseKeyField {
  @ApiPropertyOptional({ description: "This device's fingerprint: the answer says whether it is activated (code NOT_ACTIVATED when not)", minLength: 1, maxLength: FINGERPRINT_MAX_LENGTH, example: 'machine-4f9a2c' })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(FINGERPRINT_MAX_LENGTH)
  fingerprint?: string;
}

/** Body of POST /v1/licenses/deactivate and /heartbeat: the key and the device. */
export class LicenseDeviceDto extends LicenseKeyField {
  @ApiProperty({ description: "The device's fingerprint, as sent to activate", minLength: 1, maxLength: FINGERPRINT_MAX_LENGTH, example: 'machine-4f9a2c' })
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(FINGERPRINT_MAX_LENGTH)
  fingerprint: string;
}

/** Body of POST /v1/licenses/activate. */
export class ActivateLicenseDto extends LicenseDeviceDto {
  @ApiPropertyOptional({ description: 'A name for people (shown to the merchant), e.g. the computer name', type: String, nullable: true, maxLength: NAME_MAX_LENGTH, example: "Ada's MacBook" })
  @IsOptional()
  @IsString()
  @MaxLength(NAME_MAX_LENGTH)
  name?: string | null;

  @ApiPropertyOptional({ description: 'Arbitrary JSON object about the device, at most 16 KiB serialized', type: 'object', additionalProperties: true, example: { os: 'macOS 15' } })
  @IsOptionalNotNull()
  @IsMetadataObject()
  metadata?: Record<string, unknown>;
}
