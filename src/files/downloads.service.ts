import { Inject, Injectable } from '@nestjs/common';
import { BillingService } from '../billing/billing.service';
import { Clock } from '../clock/clock';
import type { Operation } from '../database/operation';
import { readTogether, StatementRefused } from '../database/combined-statement';
import { CombinedWrite } from '../database/transaction';
import { UnitOfWork } from '../database/unit-of-work';
import { FastPaths } from '../database/fast-paths';
import { EntitlementTransitionsService, LockedEntitlement } from '../entitlements/entitlement-transitions.service';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { generateId, isValidId } from '../ids/id';
import { ProductsService } from '../products/products.service';
import { DownloadQueryDto, DownloadResponseDto } from './dto/download.dto';
import { toDownloadRecord } from './file.mapper';
import { DownloadsRepository, NewDownload } from './downloads.repository';
import { FileEntity } from './file.entity';
import { FilesRepository } from './files.repository';
import { ObjectStorage } from './storage/object-storage';

export const DOWNLOAD_URL_VALIDITY_MILLISECONDS = 60 * 1000;

/** What refused a download's combined write (`downloadCombined`). */
const ENTITLEMENT_CHANGED = 'entitlement_changed';
const FILE_GONE = 'file_gone';
const BANDWIDTH_REFUSED = 'bandwidth';

interface IssuedDownload {
  file: FileEntity;
  download: NewDownload;
}

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
    private readonly fastPaths: FastPaths,
    private readonly clock: Clock,
    @Inject(ObjectStorage) private readonly storage: ObjectStorage,
  ) {}

  /**
   * The reference's five checks in its order, then every effect at once: download record,
   * download_count + 1, bandwidth, one use of the entitlement (through the entitlements module, so
   * it publishes entitlement.updated like POST /usage) and download.completed. The record keeps the
   * client's address as TRUST_PROXY lets it be told. Two round trips when nothing raced it (see
   * `downloadCombined`), else the locked transaction decides.
   */
  async download(operation: Operation, fileId: string, query: DownloadQueryDto, clientAddress: string): Promise<DownloadResponseDto> {
    const now = this.clock.now();
    // The combined attempt's turn in the merchant's share ends before the locked path takes its own.
    const issue = async () => {
      const combined = operation.idempotency || !this.fastPaths.enabled ? null : await this.unitOfWork.runShared(operation, () => this.downloadCombined(operation, fileId, query, clientAddress, now));
      return combined ?? (await this.downloadLocked(operation, fileId, query, clientAddress, now));
    };
    // A download the bandwidth cap refused may publish the 100 % threshold (DESIGN §17).
    const issued = await issue().catch((error: unknown) => this.billing.downloadFailed(operation.tenant, error, now));
    const { file, download } = issued;
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

  /**
   * The download as one transaction: the entitlement locked first (its uses count in turn), the
   * rows every download of the file and of the merchant queue on last, so their locks are held
   * only until commit.
   */
  private downloadLocked(operation: Operation, fileId: string, query: DownloadQueryDto, clientAddress: string, now: Date): Promise<IssuedDownload> {
    const { tenant } = operation;
    return this.unitOfWork.run(operation, async (tx) => {
      const entitlement = await this.entitlements.lock(tx, tenant, query.entitlement_id);
      this.check(entitlement, query);
      const file = isValidId('file', fileId) ? await this.files.findById(tx, tenant, fileId) : null;
      if (!file || !(await this.products.hasFile(tx, tenant, entitlement.productId, file.id))) this.throwFileNotFound(fileId, entitlement.id);
      this.checkConfirmed(file);
      await this.entitlements.recordUse(tx, tenant, entitlement, 1);
      const download = this.newDownload(file, entitlement, now, clientAddress);
      // The rows every download of this file, and of this merchant, queue on come last, so their
      // locks are held only until commit: the file's download_count (with the download's record),
      // then bandwidth, which refuses on the free plan's cap (rolling all of the above back).
      await this.downloads.recordCounted(tx, tenant, download);
      await tx.publish('download.completed', tenant, { ...toDownloadRecord(download), file_size: file.file_size });
      await this.billing.recordDownload(tx, tenant, file.file_size, now);
      return { file, download };
    });
  }

  /**
   * The download in two round trips: one statement reads the entitlement (with its row version),
   * the file and the file's products; the checks run on that; one statement then takes the use
   * (only if the entitlement is still the version read), counts and records the download, charges
   * the bandwidth (the free plan's cap re-checked on the newest row, as in the locked path) and
   * writes the events, and rolls all of it back if any of those is refused. A refused bandwidth
   * charge is BANDWIDTH_LIMIT_REACHED; anything else that raced (the entitlement changed, the file
   * went) returns null and the locked path decides. Requests with an Idempotency-Key take the
   * locked path too (their claim needs a transaction). Runs within the merchant's share (`runShared`).
   */
  private async downloadCombined(operation: Operation, fileId: string, query: DownloadQueryDto, clientAddress: string, now: Date): Promise<IssuedDownload | null> {
    const { tenant } = operation;
    const pool = this.unitOfWork.pool;
    // A malformed file id matches nothing; it still goes into the read so the read stays one statement.
    const wellFormedFileId = isValidId('file', fileId) ? fileId : '';
    const read = await readTogether(pool.manager, {
      entitlement: this.entitlements.readForUse(tenant, query.entitlement_id, now),
      file: this.files.findPart(tenant, wellFormedFileId),
      productIds: this.products.productIdsOfFilePart(tenant, wellFormedFileId),
    });
    const { entitlement, file } = read;
    // Judged at the customer's now (its test clock's time when bound to one: DESIGN §14).
    this.check(entitlement, query);
    if (!file || !read.productIds.includes(entitlement.productId)) this.throwFileNotFound(fileId, entitlement.id);
    this.checkConfirmed(file);
    const combined = new CombinedWrite();
    if (!(await this.entitlements.useInCombined(pool, tenant, entitlement, combined, now, ENTITLEMENT_CHANGED))) return null;
    const download = this.newDownload(file, entitlement, now, clientAddress);
    for (const part of this.downloads.recordCountedParts(tenant, download, FILE_GONE)) combined.add(part);
    combined.publish('download.completed', tenant, { ...toDownloadRecord(download), file_size: file.file_size });
    for (const part of await this.billing.downloadChargeParts(pool, tenant, file.file_size, now, BANDWIDTH_REFUSED)) combined.add(part);
    try {
      await this.unitOfWork.runCombined(operation, combined);
    } catch (error) {
      if (!(error instanceof StatementRefused)) throw error;
      if (error.refusal === BANDWIDTH_REFUSED) throw await this.billing.bandwidthRefused(pool, tenant, file.file_size, now);
      // Raced, or reached a bandwidth threshold first: the locked path decides (and publishes it).
      return null;
    }
    return { file, download };
  }

  /** Checks 1 and 2: the entitlement exists, belongs to the customer, and is active now (time- or usage-expired counts as expired before the sweeper runs). */
  private check<Read extends LockedEntitlement>(entitlement: Read | null, query: DownloadQueryDto): asserts entitlement is Read {
    if (!entitlement || entitlement.customerId !== query.customer_id) {
      throw new ApiError(ErrorCode.NOT_FOUND, `No entitlement '${query.entitlement_id}' for customer '${query.customer_id}'`, 'entitlement_id');
    }
    if (entitlement.status !== 'active') {
      throw new ApiError(ErrorCode.ENTITLEMENT_NOT_ACTIVE, `Entitlement '${entitlement.id}' is not active`, 'entitlement_id');
    }
  }

  /** Check 3 refused: the file is not one of the entitled product's. */
  private throwFileNotFound(fileId: string, entitlementId: string): never {
    throw new ApiError(ErrorCode.NOT_FOUND, `No file '${fileId}' in the product of entitlement '${entitlementId}'`);
  }

  /** Check 4: the upload is confirmed. */
  private checkConfirmed(file: FileEntity): void {
    if (file.upload_status !== 'CONFIRMED') {
      throw new ApiError(ErrorCode.UPLOAD_NOT_CONFIRMED_FOR_DOWNLOAD, `File '${file.id}' is not ready: its upload is not confirmed`);
    }
  }

  private newDownload(file: FileEntity, entitlement: LockedEntitlement, now: Date, clientAddress: string): NewDownload {
    return {
      id: generateId('dl'),
      file_id: file.id,
      entitlement_id: entitlement.id,
      customer_id: entitlement.customerId,
      bytes: file.file_size,
      downloaded_at: now,
      client_address: clientAddress,
    };
  }
}
