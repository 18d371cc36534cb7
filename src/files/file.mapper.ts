import { DownloadRecordResponseDto } from './dto/download.dto';
import { FileResponseDto } from './dto/file-response.dto';
import { DownloadEntity } from './download.entity';
import { FileEntity } from './file.entity';

/** The file; `productId` is the product of its oldest link (products module), null when unlinked. */
export function toFileResponse(file: FileEntity, productId: string | null): FileResponseDto {
  return {
    id: file.id,
    file_name: file.file_name,
    file_size: file.file_size,
    mime_type: file.mime_type,
    upload_status: file.upload_status,
    download_count: file.download_count,
    product_id: productId,
    confirmed_at: file.confirmed_at ? file.confirmed_at.toISOString() : null,
    created_at: file.created_at.toISOString(),
    updated_at: file.updated_at.toISOString(),
  };
}

export function toDownloadRecord(download: Pick<DownloadEntity, 'id' | 'file_id' | 'entitlement_id' | 'customer_id' | 'downloaded_at'>): DownloadRecordResponseDto {
  return {
    id: download.id,
    file_id: download.file_id,
    entitlement_id: download.entitlement_id,
    customer_id: download.customer_id,
    downloaded_at: download.downloaded_at.toISOString(),
  };
}
