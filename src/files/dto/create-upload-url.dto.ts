import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, MaxLength, Min } from 'class-validator';
import { ErrorCode } from '../../errors/error-code.enum';
import { ALLOWED_MIME_TYPES } from '../mime-types';
import { ID_MAX_LENGTH } from '../../validation/input-bounds';

/** The reference: any missing or invalid required field of upload-url is MISSING_REQUIRED_FIELD. */
const MISSING = { context: { errorCode: ErrorCode.MISSING_REQUIRED_FIELD } };

/**
 * No path separators, no `..`, no control characters (C0, DEL, C1), no bidirectional overrides or
 * isolates (U+202A–U+202E, U+2066–U+2069: they make `evil\u202Efdp.exe` display as `evilexe.pdf`),
 * and not only dots or spaces (which name no file on most systems).
 */
// eslint-disable-next-line no-control-regex
const SAFE_FILE_NAME = /^(?![. ]+$)(?!.*\.\.)[^/\\\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]+$/;

export class CreateUploadUrlDto {
  @ApiProperty({
    description: 'Name shown to customers on download: 1 to 255 characters, without /, \\, .., control or bidirectional-override characters, not only dots or spaces',
    example: 'field-guide.pdf',
    minLength: 1,
    maxLength: 255,
  })
  @IsDefined(MISSING)
  @IsString(MISSING)
  @Length(1, 255, { ...MISSING, message: 'file_name must be 1 to 255 characters' })
  @Matches(SAFE_FILE_NAME, {
    ...MISSING,
    message: 'file_name may not contain /, \\, .., control or bidirectional-override characters, nor be only dots or spaces',
  })
  file_name: string;

  @ApiProperty({ description: 'Size in bytes (an integer ≥ 1); the upload may differ by at most 10%', example: 1048576, minimum: 1 })
  @IsDefined(MISSING)
  @IsInt({ ...MISSING, message: 'file_size must be an integer number of bytes' })
  @Min(1, { ...MISSING, message: 'file_size must be at least 1' })
  @Max(Number.MAX_SAFE_INTEGER, { ...MISSING, message: 'file_size is too large' })
  file_size: number;

  @ApiProperty({ description: 'MIME type, from the allowed list', enum: ALLOWED_MIME_TYPES, example: 'application/pdf' })
  @IsDefined(MISSING)
  @IsIn(ALLOWED_MIME_TYPES, { ...MISSING, message: `mime_type must be one of: ${ALLOWED_MIME_TYPES.join(', ')}` })
  mime_type: string;

  // No example: Swagger UI pre-fills examples, and an id from the docs names no product of the reader's.
  @ApiPropertyOptional({ description: "Links the file to this product (appended to its fulfillment_config.file_ids), e.g. prod_01jd8x3k2m4n5p6q7r8s9t0v1w" })
  @IsOptional()
  @IsString()
  @MaxLength(ID_MAX_LENGTH)
  product_id?: string;
}
