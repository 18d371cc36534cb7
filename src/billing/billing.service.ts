import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { Plan } from '../auth/merchant.entity';
import type { Tenant } from '../auth/tenant';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { isValidId } from '../ids/id';
import { Clock } from '../clock/clock';
import { MerchantUsageResponseDto, ModeUsageResponseDto } from './dto/merchant-usage-response.dto';
import { billingMonth, PLAN_LIMITS, PlanLimits } from './plans';
import { UsageRepository } from './usage.repository';

/**
 * Quotas and meters. Each mode of a merchant is metered on its own against the plan's limits, so
 * test-mode uploads and downloads never use up live quota. The methods taking a manager must run
 * inside the caller's transaction: they lock the tenant's usage row, which makes them race-free.
 */
@Injectable()
export class BillingService {
  constructor(
    private readonly usageRepository: UsageRepository,
    private readonly clock: Clock,
  ) {}

  async limitsFor(merchantId: string, manager?: EntityManager): Promise<PlanLimits> {
    const merchant = await this.usageRepository.findMerchant(manager, merchantId);
    return PLAN_LIMITS[merchant?.plan ?? 'free'];
  }

  /** FILE_TOO_LARGE when the declared size is over the plan's max file size. */
  async assertFileSizeAllowed(tenant: Tenant, declaredBytes: number, manager?: EntityManager): Promise<void> {
    this.checkFileSize(await this.limitsFor(tenant.merchantId, manager), declaredBytes);
  }

  /**
   * Checks that `declaredBytes` fits next to confirmed storage and live reservations. Call it in
   * the transaction that inserts the PENDING file: the lock is held until that file is visible.
   */
  async reserveStorage(manager: EntityManager, tenant: Tenant, declaredBytes: number, now: Date): Promise<void> {
    const usage = await this.usageRepository.lockStorage(manager, tenant);
    const limits = await this.limitsFor(tenant.merchantId, manager);
    this.checkFileSize(limits, declaredBytes);
    const reserved = await this.usageRepository.reservedBytes(manager, tenant, now);
    if (usage.storage_used_bytes + reserved + declaredBytes > limits.storageBytes) {
      throw new ApiError(
        ErrorCode.STORAGE_LIMIT_REACHED,
        `file_size ${declaredBytes} does not fit: ${usage.storage_used_bytes} bytes stored and ${reserved} reserved of the plan's ${limits.storageBytes}`,
        'file_size',
      );
    }
  }

  /**
   * Moves a confirmed upload from reserved to used storage. A file whose upload URL has expired
   * lost its reservation, so it must fit again before it counts.
   */
  async commitStorage(
    manager: EntityManager,
    tenant: Tenant,
    file: { id: string; actualBytes: number; reservationValid: boolean },
    now: Date,
  ): Promise<void> {
    const usage = await this.usageRepository.lockStorage(manager, tenant);
    if (!file.reservationValid) {
      const limits = await this.limitsFor(tenant.merchantId, manager);
      const reserved = await this.usageRepository.reservedBytes(manager, tenant, now, file.id);
      if (usage.storage_used_bytes + reserved + file.actualBytes > limits.storageBytes) {
        throw new ApiError(
          ErrorCode.STORAGE_LIMIT_REACHED,
          `The upload URL of file '${file.id}' expired and its ${file.actualBytes} bytes no longer fit in the plan's storage`,
        );
      }
    }
    await this.usageRepository.addStorage(manager, tenant, file.actualBytes);
  }

  /**
   * Counts a download's bytes in this month's bandwidth: the free plan refuses what would pass
   * the included bandwidth (BANDWIDTH_LIMIT_REACHED), paid plans record the excess as overage.
   */
  async recordDownload(manager: EntityManager, tenant: Tenant, bytes: number, now: Date): Promise<void> {
    const usage = await this.usageRepository.lockBandwidth(manager, tenant, billingMonth(now));
    const limits = await this.limitsFor(tenant.merchantId, manager);
    const total = usage.bandwidth_bytes + bytes;
    if (limits.bandwidthHardCap && total > limits.bandwidthBytes) {
      throw new ApiError(
        ErrorCode.BANDWIDTH_LIMIT_REACHED,
        `This download of ${bytes} bytes would pass the plan's monthly bandwidth: ${usage.bandwidth_bytes} of ${limits.bandwidthBytes} bytes used`,
      );
    }
    usage.bandwidth_bytes = total;
    usage.overage_bytes = Math.max(0, total - limits.bandwidthBytes);
    await this.usageRepository.saveBandwidth(manager, usage);
  }

  /** Plan limits and this month's usage per mode: the admin API's and the CLI's `usage`. */
  async usage(merchantId: string): Promise<MerchantUsageResponseDto> {
    const merchant = isValidId('mer', merchantId) ? await this.usageRepository.findMerchant(undefined, merchantId) : null;
    if (!merchant) throw new ApiError(ErrorCode.MERCHANT_NOT_FOUND, `No merchant with id '${merchantId}'`);
    const now = this.clock.now();
    const month = billingMonth(now);
    const limits = PLAN_LIMITS[merchant.plan as Plan];
    const modeUsage = async (tenant: Tenant): Promise<ModeUsageResponseDto> => {
      const [storage, reserved, bandwidth] = await Promise.all([
        this.usageRepository.findStorage(tenant),
        this.usageRepository.reservedBytesNow(tenant, now),
        this.usageRepository.findBandwidth(tenant, month),
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
