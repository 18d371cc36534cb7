import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PaginationQueryDto } from '../../pagination/pagination-query.dto';
import { UPLOAD_STATUSES, UploadStatus } from '../file.entity';

/** GET /v1/files: every filter optional (examples in the text: Swagger UI would pre-fill them). */
export class ListFilesQueryDto extends PaginationQueryDto {
  @ApiPropertyOptional({ description: "Only the files linked to this product (none for an unknown product), e.g. prod_01jd8x3k2m4n5p6q7r8s9t0v1w" })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  product_id?: string;

  @ApiPropertyOptional({ description: 'Only files in this upload status', enum: UPLOAD_STATUSES })
  @IsOptional()
  @IsIn(UPLOAD_STATUSES, { message: `upload_status must be one of ${UPLOAD_STATUSES.join(', ')}` })
  upload_status?: UploadStatus;
}
