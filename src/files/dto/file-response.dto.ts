import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ALLOWED_MIME_TYPES } from '../mime-types';
import { UPLOAD_STATUSES } from '../file.entity';

export class FileResponseDto {
  @ApiProperty({ description: 'File id', example: 'file_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({ description: 'Name given on upload-url; used in Content-Disposition on download', example: 'field-guide.pdf' })
  file_name: string;

  @ApiProperty({ description: 'Bytes: declared while PENDING, the stored size once CONFIRMED', example: 1048576 })
  file_size: number;

  @ApiProperty({ description: 'MIME type', enum: ALLOWED_MIME_TYPES, example: 'application/pdf' })
  mime_type: string;

  @ApiProperty({ description: 'PENDING after upload-url, CONFIRMED after confirm', enum: UPLOAD_STATUSES, example: 'CONFIRMED' })
  upload_status: string;

  @ApiProperty({ description: 'Download URLs issued for this file', example: 0 })
  download_count: number;

  @ApiProperty({ description: 'Product given on upload-url, if any', type: String, nullable: true, example: 'prod_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  product_id: string | null;

  @ApiPropertyOptional({ description: 'When the upload was confirmed', type: String, nullable: true, example: '2026-11-22T13:05:12.345Z' })
  confirmed_at: string | null;

  @ApiProperty({ description: 'Creation time', example: '2026-11-22T13:04:41.123Z' })
  created_at: string;

  @ApiProperty({ description: 'Last change', example: '2026-11-22T13:05:12.345Z' })
  updated_at: string;
}

export class UploadUrlResponseDto {
  @ApiProperty({
    description: 'Presigned URL: PUT the bytes here with the upload_headers; valid 1 hour',
    example: 'http://localhost:3000/storage/mer_01jd8x3k2m4n5p6q7r8s9t0v1w/test/file_01jd8x3k2m4n5p6q7r8s9t0v1w?token=eyJ…',
  })
  upload_url: string;

  @ApiProperty({ description: 'File id', example: 'file_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  file_id: string;

  @ApiProperty({ description: 'The file, upload_status PENDING', type: FileResponseDto })
  file: FileResponseDto;

  @ApiProperty({ description: 'When upload_url stops working (and the storage reservation ends)', example: '2026-11-22T14:04:41.123Z' })
  expires_at: string;

  // What the storage drivers ask for (local-object-storage.ts, s3-object-storage.ts): no other header.
  @ApiProperty({
    description: 'Headers the PUT must send, as given',
    type: 'object',
    properties: {
      'Content-Type': { type: 'string', enum: ALLOWED_MIME_TYPES, description: 'The declared mime_type' },
      'If-None-Match': { type: 'string', enum: ['*'], description: 'S3 storage: the upload may not replace an object' },
    },
    required: ['Content-Type'],
    // Always sent: `required` above lists the object's own required headers.
    selfRequired: true,
    additionalProperties: false,
    example: { 'Content-Type': 'application/pdf' },
  })
  upload_headers: Record<string, string>;
}

/** DELETE /v1/files/{id}. */
export class DeletedFileResponseDto {
  @ApiProperty({ description: 'The deleted file', example: 'file_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({ description: 'Always true', example: true })
  deleted: boolean;
}
