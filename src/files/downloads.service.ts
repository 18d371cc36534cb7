import { Inject, Injectable } from '@nestjs/common';
import type { Tenant } from '../auth/tenant';
import { BillingService } from '../billing/billing.service';
import { Clock } from '../clock/clock';
import { UnitOfWork } from '../database/unit-of-work';
import { effectiveStatus } from '../entitlements/effective-status';
import { PageResult } from '../envelope/page-result';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { generateId, isValidId } from '../ids/id';
import { toPageRequest, toPageResult } from '../pagination/page';
import { PaginationQueryDto } from '../pagination/pagination-query.dto';
import { CustomerDownloadGroupDto, DownloadQueryDto, DownloadResponseDto } from './dto/download.dto';
import { DownloadEntity } from './download.entity';
import { toDownloadRecord } from './file.mapper';
import { DownloadsRepository } from './downloads.repository';
import { FilesRepository } from './files.repository';
import { ObjectStorage } from './storage/object-storage';

export const DOWNLOAD_URL_VALIDITY_MILLISECONDS = 60 * 1000;


/** Download URLs for entitled customers, and the customer's downloadable files. */
@Injectable()
export class DownloadsService {
  constructor(
    private readonly downloads: DownloadsRepository,
    private readonly files: FilesRepository,
    private readonly billing: BillingService,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    @Inject(ObjectStorage) private readonly storage: ObjectStorage,
  ) {}

  /**
   * The reference's five checks in its order, then every effect in one transaction: download
   * record, download_count + 1, bandwidth, one use of the entitlement, download.completed.
   */
  async download(tenant: Tenant, fileId: string, query: DownloadQueryDto): Promise<DownloadResponseDto> {
    const now = this.clock.now();
    const { file, download } = await this.unitOfWork.run(async ({ manager, publish }) => {
      // 1. The entitlement exists and belongs to the customer (locked: its uses count in turn).
      const entitlement = isValidId('ent', query.entitlement_id)
        ? await this.downloads.lockEntitlement(manager, tenant, query.entitlement_id)
        : null;
      if (!entitlement || entitlement.customer_id !== query.customer_id) {
        throw new ApiError(ErrorCode.NOT_FOUND, `No entitlement '${query.entitlement_id}' for customer '${query.customer_id}'`, 'entitlement_id');
      }
      // 2. It is active now (time- or usage-expired counts as expired before the sweeper runs).
      if (effectiveStatus(entitlement, now) !== 'active') {
        throw new ApiError(ErrorCode.ENTITLEMENT_NOT_ACTIVE, `Entitlement '${entitlement.id}' is not active`, 'entitlement_id');
      }
      // 3. The file belongs to the entitled product.
      const product = await this.downloads.findProduct(manager, tenant, entitlement.product_id);
      const file = isValidId('file', fileId) ? await this.files.findById(tenant, fileId, manager) : null;
      if (!file || !product || !(product.fulfillment_config.file_ids ?? []).includes(file.id)) {
        throw new ApiError(ErrorCode.NOT_FOUND, `No file '${fileId}' in the product of entitlement '${entitlement.id}'`);
      }
      // 4. The upload is confirmed.
      if (file.upload_status !== 'CONFIRMED') {
        throw new ApiError(ErrorCode.UPLOAD_NOT_CONFIRMED_FOR_DOWNLOAD, `File '${file.id}' is not ready: its upload is not confirmed`);
      }
      // 5. Bandwidth (locks the month's usage row; refuses on the free plan, records overage otherwise).
      await this.billing.recordDownload(manager, tenant, file.file_size, now);
      const download = await this.downloads.insert(
        manager,
        Object.assign(new DownloadEntity(), {
          id: generateId('dl'),
          merchant_id: tenant.merchantId,
          mode: tenant.mode,
          file_id: file.id,
          entitlement_id: entitlement.id,
          customer_id: entitlement.customer_id,
          bytes: file.file_size,
          downloaded_at: now,
        }),
      );
      await this.files.incrementDownloadCount(manager, tenant, file.id);
      await this.downloads.recordEntitlementUse(manager, tenant, entitlement.id);
      await publish('download.completed', tenant, { ...toDownloadRecord(download), file_size: file.file_size });
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

  /** One group per active entitlement whose product delivers CONFIRMED files; no total (reference). */
  async customerDownloads(
    tenant: Tenant,
    customerId: string,
    query: PaginationQueryDto,
  ): Promise<PageResult<CustomerDownloadGroupDto>> {
    const customer = isValidId('cus', customerId) ? await this.downloads.findCustomer(tenant, customerId) : null;
    if (!customer) throw new ApiError(ErrorCode.CUSTOMER_NOT_FOUND, `No customer with id '${customerId}'`);
    const page = toPageRequest(query);
    const entitlements = await this.downloads.downloadableEntitlements(tenant, customer.id, this.clock.now(), page);
    const products = new Map(
      (await this.downloads.findProducts(tenant, [...new Set(entitlements.map((row) => row.product_id))])).map((product) => [
        product.id,
        product,
      ]),
    );
    const fileIds = [...new Set([...products.values()].flatMap((product) => product.fulfillment_config.file_ids ?? []))];
    const files = new Map((await this.files.findConfirmed(tenant, fileIds)).map((file) => [file.id, file]));
    return toPageResult(
      entitlements,
      page,
      (row) => row.created_at,
      (entitlement) => {
        const product = products.get(entitlement.product_id);
        return {
          entitlement_id: entitlement.id,
          product_id: entitlement.product_id,
          product_name: product?.name ?? '',
          files: (product?.fulfillment_config.file_ids ?? []).flatMap((id) => {
            const file = files.get(id);
            return file ? [{ file_id: file.id, file_name: file.file_name, file_size: file.file_size, mime_type: file.mime_type }] : [];
          }),
        };
      },
    );
  }
}
