import { ApiProperty } from '@nestjs/swagger';
import { MAX_FILE_IDS } from '../../products/dto/product-request.dto';
import { ALLOWED_MIME_TYPES } from '../../files/mime-types';

export class CustomerDownloadFileDto {
  @ApiProperty({ description: 'File id', example: 'file_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  file_id: string;

  @ApiProperty({ description: 'File name', example: 'field-guide.pdf' })
  file_name: string;

  @ApiProperty({ description: 'Bytes', example: 1048576 })
  file_size: number;

  @ApiProperty({ description: 'MIME type', enum: ALLOWED_MIME_TYPES, example: 'application/pdf' })
  mime_type: string;
}

export class CustomerDownloadGroupDto {
  @ApiProperty({ description: 'Active entitlement', example: 'ent_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  entitlement_id: string;

  @ApiProperty({ description: 'Entitled product', example: 'prod_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  product_id: string;

  @ApiProperty({ description: 'Product name', example: 'The Field Guide (ebook)' })
  product_name: string;

  @ApiProperty({ description: "The product's CONFIRMED files", type: [CustomerDownloadFileDto], maxItems: MAX_FILE_IDS })
  files: CustomerDownloadFileDto[];
}
