import { Inject, Injectable } from '@nestjs/common';
import type { Tenant } from '../auth/tenant';
import { BillingService } from '../billing/billing.service';
import { Clock } from '../clock/clock';
import { UnitOfWork } from '../database/unit-of-work';
import { PageResult } from '../envelope/page-result';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { generateId, isValidId } from '../ids/id';
import { toPageRequest, toPageResult } from '../pagination/page';
import { PaginationQueryDto } from '../pagination/pagination-query.dto';
import { CreateUploadUrlDto } from './dto/create-upload-url.dto';
import { FileResponseDto, UploadUrlResponseDto } from './dto/file-response.dto';
import { FileEntity } from './file.entity';
import { toFileResponse } from './file.mapper';
import { FilesRepository } from './files.repository';
import { ObjectStorage } from './storage/object-storage';

export const UPLOAD_URL_VALIDITY_MILLISECONDS = 60 * 60 * 1000;

/** The actual size may differ from the declared one by at most 10% (integer arithmetic, exact at the edge). */
export function withinSizeTolerance(declaredBytes: number, actualBytes: number): boolean {
  return Math.abs(actualBytes - declaredBytes) * 10 <= declaredBytes;
}

/** Upload (reserve + presign), confirm, and the merchant's own reads of its files. */
@Injectable()
export class FilesService {
  constructor(
    private readonly files: FilesRepository,
    private readonly billing: BillingService,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    @Inject(ObjectStorage) private readonly storage: ObjectStorage,
  ) {}

  async createUploadUrl(tenant: Tenant, body: CreateUploadUrlDto): Promise<UploadUrlResponseDto> {
    if (body.product_id !== undefined && !isValidId('prod', body.product_id)) throw this.productNotFound(body.product_id);
    await this.billing.assertFileSizeAllowed(tenant, body.file_size);
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + UPLOAD_URL_VALIDITY_MILLISECONDS);
    const fileId = generateId('file');
    const file = await this.unitOfWork.run(async ({ manager }) => {
      // Product first: a missing product is a 404 whatever the quota says.
      if (body.product_id && !(await this.files.lockProduct(manager, tenant, body.product_id))) {
        throw this.productNotFound(body.product_id);
      }
      await this.billing.reserveStorage(manager, tenant, body.file_size, now);
      const created = await this.files.insert(
        manager,
        Object.assign(new FileEntity(), {
          id: fileId,
          merchant_id: tenant.merchantId,
          mode: tenant.mode,
          file_name: body.file_name,
          file_size: body.file_size,
          mime_type: body.mime_type,
          object_key: `${tenant.merchantId}/${tenant.mode}/${fileId}`,
          upload_status: 'PENDING',
          download_count: 0,
          product_id: body.product_id ?? null,
          upload_expires_at: expiresAt,
          confirmed_at: null,
        }),
      );
      if (body.product_id) await this.files.linkToProduct(manager, tenant, body.product_id, fileId);
      return created;
    });
    const target = await this.storage.createUploadUrl({
      objectKey: file.object_key,
      contentType: file.mime_type,
      declaredBytes: file.file_size,
      expiresAt,
      issuedAt: now,
    });
    return {
      upload_url: target.url,
      file_id: file.id,
      file: toFileResponse(file),
      expires_at: expiresAt.toISOString(),
      upload_headers: target.headers,
    };
  }

  /**
   * PENDING → CONFIRMED once the object exists and its size is within 10% of the declared one.
   * A size outside the tolerance deletes the object and leaves the file PENDING, so the client can
   * upload again while the URL is valid.
   */
  async confirm(tenant: Tenant, fileId: string): Promise<FileResponseDto> {
    const file = await this.require(tenant, fileId);
    if (file.upload_status !== 'PENDING') throw this.notPending(file);
    const actualBytes = await this.storage.objectSize(file.object_key);
    if (actualBytes === null) {
      throw new ApiError(ErrorCode.UPLOAD_NOT_CONFIRMED, `File '${file.id}' has not been uploaded: no object in storage`);
    }
    if (!withinSizeTolerance(file.file_size, actualBytes)) {
      await this.storage.deleteObject(file.object_key);
      throw new ApiError(
        ErrorCode.UPLOAD_NOT_CONFIRMED,
        `The uploaded object has ${actualBytes} bytes, more than 10% off the declared file_size of ${file.file_size}; it was deleted, upload it again`,
      );
    }
    const now = this.clock.now();
    const confirmed = await this.unitOfWork.run(async ({ manager, publish }) => {
      // Lock order file → storage row; upload-url takes product → storage row, so no cycle.
      const locked = await this.files.lockById(manager, tenant, file.id);
      if (!locked || locked.upload_status !== 'PENDING') throw this.notPending(locked ?? file);
      await this.billing.commitStorage(
        manager,
        tenant,
        { id: locked.id, actualBytes, reservationValid: locked.upload_expires_at > now },
        now,
      );
      locked.file_size = actualBytes;
      locked.upload_status = 'CONFIRMED';
      locked.confirmed_at = now;
      const saved = await this.files.save(manager, locked);
      await publish('file.uploaded', tenant, { ...toFileResponse(saved) });
      return saved;
    });
    return toFileResponse(confirmed);
  }

  async get(tenant: Tenant, fileId: string): Promise<FileResponseDto> {
    return toFileResponse(await this.require(tenant, fileId));
  }

  async list(tenant: Tenant, query: PaginationQueryDto): Promise<PageResult<FileResponseDto>> {
    const page = toPageRequest(query);
    const { rows, total } = await this.files.list(tenant, page);
    return toPageResult(rows, page, (row) => row.created_at, toFileResponse, total);
  }

  /** The file of this tenant, or 404 FILE_NOT_FOUND (also for malformed ids and other tenants' ids). */
  async require(tenant: Tenant, fileId: string): Promise<FileEntity> {
    const file = isValidId('file', fileId) ? await this.files.findById(tenant, fileId) : null;
    if (!file) throw new ApiError(ErrorCode.FILE_NOT_FOUND, `No file with id '${fileId}'`);
    return file;
  }

  private notPending(file: FileEntity): ApiError {
    return new ApiError(ErrorCode.UPLOAD_NOT_CONFIRMED, `File '${file.id}' is ${file.upload_status}; only PENDING files can be confirmed`);
  }

  private productNotFound(productId: string): ApiError {
    return new ApiError(ErrorCode.PRODUCT_NOT_FOUND, `No product with id '${productId}'`, 'product_id');
  }
}
