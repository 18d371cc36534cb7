import { Injectable } from '@nestjs/common';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import type { Tenant } from '../database/tenant';
import { UnitOfWork } from '../database/unit-of-work';
import { overageBytesOf } from './billing-terms';
import { BillingService } from './billing.service';
import { TenantUsageResponseDto } from './dto/tenant-usage-response.dto';
import { amountAsNumber, overageAmount } from './overage-amount';
import { billingMonth } from './plans';
import { UsageRepository } from './usage.repository';

/** What a merchant's key sees of its own usage and charge (GET /v1/usage). */
@Injectable()
export class TenantUsageService {
  constructor(
    private readonly billing: BillingService,
    private readonly usage: UsageRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async usageOf(tenant: Tenant): Promise<TenantUsageResponseDto> {
    const now = this.clock.now();
    const month = billingMonth(now);
    const db = this.unitOfWork.pool;
    const [terms, storage, reserved, bandwidth] = await Promise.all([
      this.billing.termsFor(db, tenant.merchantId),
      this.usage.findStorage(db, tenant),
      this.usage.reservedBytes(db, tenant, now),
      this.usage.findBandwidth(db, tenant, month),
    ]);
    const { limits } = terms;
    const bandwidthBytes = bandwidth?.bandwidth_bytes ?? 0;
    const overageBytes = overageBytesOf(bandwidthBytes, limits.bandwidthBytes, limits.bandwidthHardCap);
    return {
      month,
      mode: tenant.mode,
      plan: terms.plan,
      limits: {
        max_file_size_bytes: limits.maxFileSizeBytes,
        storage_bytes: limits.storageBytes,
        bandwidth_bytes: limits.bandwidthBytes,
        bandwidth_hard_cap: limits.bandwidthHardCap,
      },
      storage_used_bytes: storage?.storage_used_bytes ?? 0,
      storage_reserved_bytes: reserved,
      bandwidth_bytes: bandwidthBytes,
      overage_bytes: overageBytes,
      overage: {
        price_per_gib: terms.overagePricePerGib,
        currency: this.config.overageCurrency,
        amount_to_date: terms.overagePricePerGib === null ? 0 : amountAsNumber(overageAmount(overageBytes, terms.overagePricePerGib)),
      },
    };
  }
}
