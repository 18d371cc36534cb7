import { Injectable } from '@nestjs/common';
import { MerchantsService, termsOf } from '../auth/merchants.service';
import type { WritePart } from '../database/combined-statement';
import type { Tenant } from '../database/tenant';
import type { Reader, Transaction } from '../database/transaction';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { Clock } from '../clock/clock';
import { UnitOfWork } from '../database/unit-of-work';
import { MerchantUsageResponseDto, ModeUsageResponseDto } from './dto/merchant-usage-response.dto';
import { AppConfig } from '../config/app-config';
import { BandwidthThresholds } from './bandwidth-thresholds';
import { BillingTerms, billingTermsOf } from './billing-terms';
import { billingMonth, PlanLimits } from './plans';
import { BandwidthCharge, UsageRepository } from './usage.repository';

/** A pending upload's claim on storage: its declared size, until its upload URL expires. */
export interface StorageReservation {
  fileId: string;
  bytes: number;
  expiresAt: Date;
}

/**
 * Quotas and meters. Each mode of a merchant is metered on its own against the plan's limits, so
 * test-mode uploads and downloads never use up live quota. The methods taking `tx` run inside the
 * caller's transaction: they lock the tenant's usage row, which makes them race-free.
 */
@Injectable()
export class BillingService {
  constructor(
    private readonly usageRepository: UsageRepository,
    private readonly merchants: MerchantsService,
    private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
    private readonly config: AppConfig,
    private readonly thresholds: BandwidthThresholds,
  ) {}

  async limitsFor(db: Reader, merchantId: string): Promise<PlanLimits> {
    return (await this.termsFor(db, merchantId)).limits;
  }

  /** The merchant's plan, limits and overage price as they stand (its own terms over the plan's). */
  async termsFor(db: Reader, merchantId: string): Promise<BillingTerms> {
    return billingTermsOf(await this.merchants.termsFor(db, merchantId), this.config.overagePrices);
  }

  /** FILE_TOO_LARGE when the declared size is over the plan's max file size. */
  async assertFileSizeAllowed(db: Reader, tenant: Tenant, declaredBytes: number): Promise<void> {
    this.checkFileSize(await this.limitsFor(db, tenant.merchantId), declaredBytes);
  }

  /**
   * Reserves the declared size of a pending upload, if it fits next to confirmed storage and the
   * live reservations. The storage row stays locked until the transaction ends.
   */
  async reserveStorage(tx: Transaction, tenant: Tenant, reservation: StorageReservation, now: Date): Promise<void> {
    const usage = await this.usageRepository.lockStorage(tx, tenant);
    // Reservations whose upload URL expired count no more; dropping them keeps the table small.
    await this.usageRepository.deleteExpiredReservations(tx, tenant, now);
    const limits = await this.limitsFor(tx, tenant.merchantId);
    this.checkFileSize(limits, reservation.bytes);
    const reserved = await this.usageRepository.reservedBytes(tx, tenant, now);
    if (usage.storage_used_bytes + reserved + reservation.bytes > limits.storageBytes) {
      throw new ApiError(
        ErrorCode.STORAGE_LIMIT_REACHED,
        `file_size ${reservation.bytes} does not fit: ${usage.storage_used_bytes} bytes stored and ${reserved} reserved of the plan's ${limits.storageBytes}`,
        'file_size',
      );
    }
    await this.usageRepository.insertReservation(tx, tenant, reservation);
  }

  /**
   * Moves a confirmed upload from reserved to used storage. An upload whose URL has expired lost
   * its reservation, so it must fit again before it counts.
   */
  async commitStorage(tx: Transaction, tenant: Tenant, file: { id: string; actualBytes: number }, now: Date): Promise<void> {
    const usage = await this.usageRepository.lockStorage(tx, tenant);
    const reservation = await this.usageRepository.findReservation(tx, tenant, file.id);
    if (!reservation || reservation.expires_at <= now) {
      const limits = await this.limitsFor(tx, tenant.merchantId);
      const reserved = await this.usageRepository.reservedBytes(tx, tenant, now, file.id);
      if (usage.storage_used_bytes + reserved + file.actualBytes > limits.storageBytes) {
        throw new ApiError(
          ErrorCode.STORAGE_LIMIT_REACHED,
          `The upload URL of file '${file.id}' expired and its ${file.actualBytes} bytes no longer fit in the plan's storage`,
        );
      }
    }
    await this.usageRepository.addStorage(tx, tenant, file.actualBytes);
    await this.usageRepository.deleteReservation(tx, tenant, file.id);
  }

  /**
   * A deleted file's storage: a PENDING file's reservation ends, a CONFIRMED file's bytes leave
   * used storage. Under the storage row's lock, like every storage decision of the tenant.
   */
  async releaseStorage(tx: Transaction, tenant: Tenant, file: { id: string; confirmedBytes: number | null }): Promise<void> {
    await this.usageRepository.lockStorage(tx, tenant);
    if (file.confirmedBytes !== null) await this.usageRepository.addStorage(tx, tenant, -file.confirmedBytes);
    await this.usageRepository.deleteReservation(tx, tenant, file.id);
  }

  /**
   * Counts a download's bytes in this month's bandwidth: the free plan refuses what would pass
   * the included bandwidth (BANDWIDTH_LIMIT_REACHED), paid plans record the excess as overage.
   * Run it as the transaction's last write: it takes the merchant's bandwidth row lock.
   */
  async recordDownload(tx: Transaction, tenant: Tenant, bytes: number, now: Date): Promise<void> {
    const limits = await this.limitsFor(tx, tenant.merchantId);
    const charge = this.downloadCharge(limits, bytes, now);
    const charged = await this.usageRepository.chargeBandwidth(tx, tenant, charge);
    if (!charged.accepted) throw this.bandwidthRefusal(limits, bytes, charged.bandwidthBytes);
    await this.thresholds.publishReached(tx, tenant, { month: charge.month, bandwidthBytes: charged.bandwidthBytes, includedBytes: limits.bandwidthBytes, at: now });
  }

  /**
   * recordDownload as parts of a combined write: refused (`refusal`) where recordDownload throws,
   * and refused (another refusal: the caller's locked path then runs recordDownload) where the
   * charge reaches a bandwidth threshold not yet published. The row lock is held only for the
   * rest of that one statement.
   */
  async downloadChargeParts(db: Reader, tenant: Tenant, bytes: number, now: Date, refusal: string): Promise<WritePart[]> {
    const limits = await this.limitsFor(db, tenant.merchantId);
    const charge = this.downloadCharge(limits, bytes, now);
    return [this.usageRepository.chargeBandwidthPart(tenant, charge, refusal), this.thresholds.checkPart(tenant, charge.month, limits.bandwidthBytes)];
  }

  /**
   * A download that failed: when the bandwidth cap refused it, the 100 % threshold is published
   * (once per month, DESIGN §17) in a transaction of its own, since the download's rolled back.
   * Rethrows the failure.
   */
  async downloadFailed(tenant: Tenant, error: unknown, now: Date): Promise<never> {
    if (error instanceof ApiError && error.code === ErrorCode.BANDWIDTH_LIMIT_REACHED) {
      const [limits, current] = await Promise.all([this.limitsFor(this.unitOfWork.pool, tenant.merchantId), this.usageRepository.findBandwidth(this.unitOfWork.pool, tenant, billingMonth(now))]);
      await this.thresholds.publishCapReached(tenant, { month: billingMonth(now), bandwidthBytes: current?.bandwidth_bytes ?? 0, includedBytes: limits.bandwidthBytes, at: now });
    }
    throw error;
  }

  /** BANDWIDTH_LIMIT_REACHED for a combined write whose charge was refused, with the month's usage as it is now. */
  async bandwidthRefused(db: Reader, tenant: Tenant, bytes: number, now: Date): Promise<ApiError> {
    const [limits, current] = await Promise.all([this.limitsFor(db, tenant.merchantId), this.usageRepository.findBandwidth(db, tenant, billingMonth(now))]);
    return this.bandwidthRefusal(limits, bytes, current?.bandwidth_bytes ?? 0);
  }

  private downloadCharge(limits: PlanLimits, bytes: number, now: Date): BandwidthCharge {
    return { month: billingMonth(now), bytes, includedBytes: limits.bandwidthBytes, hardCapBytes: limits.bandwidthHardCap ? limits.bandwidthBytes : null };
  }

  private bandwidthRefusal(limits: PlanLimits, bytes: number, bandwidthBytes: number): ApiError {
    return new ApiError(
      ErrorCode.BANDWIDTH_LIMIT_REACHED,
      `This download of ${bytes} bytes would pass the plan's monthly bandwidth: ${bandwidthBytes} of ${limits.bandwidthBytes} bytes used`,
    );
  }

  /** Plan limits and this month's usage per mode: the admin API's and the CLI's `usage`. */
  async usage(merchantId: string): Promise<MerchantUsageResponseDto> {
    const merchant = await this.merchants.require(merchantId);
    const now = this.clock.now();
    const month = billingMonth(now);
    const { limits } = billingTermsOf(termsOf(merchant), this.config.overagePrices);
    // May lag the primary (DESIGN §15): refusals at the limit read the primary, in the download's own statement.
    const db = this.unitOfWork.replica;
    const modeUsage = async (tenant: Tenant): Promise<ModeUsageResponseDto> => {
      const [storage, reserved, bandwidth] = await Promise.all([
        this.usageRepository.findStorage(db, tenant),
        this.usageRepository.reservedBytes(db, tenant, now),
        this.usageRepository.findBandwidth(db, tenant, month),
      ]);
      return {
        storage_used_bytes: storage?.storage_used_bytes ?? 0,
        storage_reserved_bytes: reserved,
        bandwidth_bytes: bandwidth?.bandwidth_bytes ?? 0,
        overage_bytes: bandwidth?.overage_bytes ?? 0,
      };
    };
    return {
      merchant_id: merchant.id,
      plan: merchant.plan,
      month,
      limits: {
        max_file_size_bytes: limits.maxFileSizeBytes,
        storage_bytes: limits.storageBytes,
        bandwidth_bytes: limits.bandwidthBytes,
        bandwidth_hard_cap: limits.bandwidthHardCap,
      },
      usage: {
        live: await modeUsage({ merchantId: merchant.id, mode: 'live' }),
        test: await modeUsage({ merchantId: merchant.id, mode: 'test' }),
      },
    };
  }

  private checkFileSize(limits: PlanLimits, declaredBytes: number): void {
    if (declaredBytes > limits.maxFileSizeBytes) {
      throw new ApiError(
        ErrorCode.FILE_TOO_LARGE,
        `file_size ${declaredBytes} is over the plan's max file size of ${limits.maxFileSizeBytes} bytes`,
        'file_size',
      );
    }
  }
}
