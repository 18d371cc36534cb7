import { Inject, Injectable } from '@nestjs/common';
import { BillingService } from '../billing/billing.service';
import { Clock } from '../clock/clock';
import type { Operation } from '../database/operation';
import { UnitOfWork } from '../database/unit-of-work';
import { EntitlementTransitionsService } from '../entitlements/entitlement-transitions.service';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { generateId, isValidId } from '../ids/id';
import { ProductsService } from '../products/products.service';
import { DownloadQueryDto, DownloadResponseDto } from './dto/download.dto';
import { toDownloadRecord } from './file.mapper';
import { DownloadsRepository } from './downloads.repository';
import { FilesRepository } from './files.repository';
import { ObjectStorage } from './storage/object-storage';

export const DOWNLOAD_URL_VALIDITY_MILLISECONDS = 60 * 1000;

/** Download URLs for entitled customers. */
@Injectable()
export class DownloadsService {
  constructor(
    private readonly downloads: DownloadsRepository,
    private readonly files: FilesRepository,
    private readonly entitlements: EntitlementTransitionsService,
    private readonly products: ProductsService,
    private readonly billing: BillingService,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    @Inject(ObjectStorage) private readonly storage: ObjectStorage,
  ) {}

  /**
   * The reference's five checks in its order, then every effect in one transaction: download
   * record, download_count + 1, bandwidth, one use of the entitlement (through the entitlements
   * module, so it publishes entitlement.updated like POST /usage) and download.completed. The
   * record keeps the client's address as TRUST_PROXY lets it be told.
   */
  async download(operation: Operation, fileId: string, query: DownloadQueryDto, clientAddress: string): Promise<DownloadResponseDto> {
    const { tenant } = operation;
    const now = this.clock.now();
    const { file, download } = await this.unitOfWork.run(operation, async (tx) => {
      // 1. The entitlement exists and belongs to the customer (locked: its uses count in turn).
      const entitlement = await this.entitlements.lock(tx, tenant, query.entitlement_id);
      if (!entitlement || entitlement.customerId !== query.customer_id) {
        throw new ApiError(ErrorCode.NOT_FOUND, `No entitlement '${query.entitlement_id}' for customer '${query.customer_id}'`, 'entitlement_id');
      }
      // 2. It is active now (time- or usage-expired counts as expired before the sweeper runs).
      if (entitlement.status !== 'active') {
        throw new ApiError(ErrorCode.ENTITLEMENT_NOT_ACTIVE, `Entitlement '${entitlement.id}' is not active`, 'entitlement_id');
      }
      // 3. The file belongs to the entitled product.
      const file = isValidId('file', fileId) ? await this.files.findById(tx, tenant, fileId) : null;
      if (!file || !(await this.products.hasFile(tx, tenant, entitlement.productId, file.id))) {
        throw new ApiError(ErrorCode.NOT_FOUND, `No file '${fileId}' in the product of entitlement '${entitlement.id}'`);
      }
      // 4. The upload is confirmed.
      if (file.upload_status !== 'CONFIRMED') {
        throw new ApiError(ErrorCode.UPLOAD_NOT_CONFIRMED_FOR_DOWNLOAD, `File '${file.id}' is not ready: its upload is not confirmed`);
      }
      await this.entitlements.recordUse(tx, tenant, entitlement, 1);
      const download = {
        id: generateId('dl'),
        file_id: file.id,
        entitlement_id: entitlement.id,
        customer_id: entitlement.customerId,
        bytes: file.file_size,
        downloaded_at: now,
        client_address: clientAddress,
      };
      // The rows every download of this file, and of this merchant, queue on come last, so their
      // locks are held only until commit: the file's download_count (with the download's record),
      // then bandwidth, which refuses on the free plan's cap (rolling all of the above back).
      await this.downloads.recordCounted(tx, tenant, download);
      await tx.publish('download.completed', tenant, { ...toDownloadRecord(download), file_size: file.file_size });
      await this.billing.recordDownload(tx, tenant, file.file_size, now);
      return { file, download };
    });
    const expiresAt = new Date(now.getTime() + DOWNLOAD_URL_VALIDITY_MILLISECONDS);
    const downloadUrl = await this.storage.createDownloadUrl({
      objectKey: file.object_key,
      contentType: file.mime_type,
      fileName: file.file_name,
      expiresAt,
      issuedAt: now,
    });
    return { download_url: downloadUrl, expires_at: expiresAt.toISOString(), download: toDownloadRecord(download) };
  }
}
