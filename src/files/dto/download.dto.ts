import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, MaxLength, MinLength } from 'class-validator';
import { ID_MAX_LENGTH } from '../../validation/input-bounds';

export class DownloadQueryDto {
  // No examples: Swagger UI pre-fills them, and an id printed in the docs names nothing of the reader's.
  @ApiProperty({
    description:
      "Entitlement giving access (must belong to the customer and include the file's product): an `id` from `GET /v1/customers/{customer_id}/entitlements` or `GET /v1/entitlements`, e.g. ent_01jd8x3k2m4n5p6q7r8s9t0v1w",
  })
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(ID_MAX_LENGTH)
  entitlement_id: string;

  @ApiProperty({ description: "Customer downloading: the entitlement's `customer_id`, e.g. cus_01jd8x3k2m4n5p6q7r8s9t0v1w" })
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(ID_MAX_LENGTH)
  customer_id: string;
}

export class DownloadRecordResponseDto {
  @ApiProperty({ description: 'Download record id', example: 'dl_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({ description: 'File id', example: 'file_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  file_id: string;

  @ApiProperty({ description: 'Entitlement id', example: 'ent_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  entitlement_id: string;

  @ApiProperty({ description: 'Customer id', example: 'cus_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  customer_id: string;

  @ApiProperty({ description: 'When the download URL was issued', example: '2026-11-22T13:06:00.000Z' })
  downloaded_at: string;
}

export class DownloadResponseDto {
  @ApiProperty({
    description: 'Signed URL, valid 60 seconds; answers with the file and Content-Disposition: attachment',
    example: 'http://localhost:3000/storage/mer_01jd8x3k2m4n5p6q7r8s9t0v1w/live/file_01jd8x3k2m4n5p6q7r8s9t0v1w?token=eyJ…',
  })
  download_url: string;

  @ApiProperty({ description: 'When download_url stops working', example: '2026-11-22T13:07:00.000Z' })
  expires_at: string;

  @ApiProperty({ description: 'The download record', type: DownloadRecordResponseDto })
  download: DownloadRecordResponseDto;
}
