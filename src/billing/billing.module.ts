import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ClockModule } from '../clock/clock.module';
import { BandwidthThresholds } from './bandwidth-thresholds';
import { BandwidthThresholdsRepository } from './bandwidth-thresholds.repository';
import { BillingService } from './billing.service';
import { MonthCloseJob } from './month-close.job';
import { StatementReporter } from './statement-reporter';
import { TenantUsageService } from './tenant-usage.service';
import { UsageController } from './usage.controller';
import { UsageRepository } from './usage.repository';
import { UsageStatementsRepository } from './usage-statements.repository';
import { UsageStatementsService } from './usage-statements.service';

/**
 * Plans, usage meters, storage reservations and quota checks; overage pricing, bandwidth
 * thresholds and monthly usage statements (DESIGN §17). Plans and terms come from the merchants (auth).
 */
@Module({
  imports: [AuthModule, ClockModule],
  controllers: [UsageController],
  providers: [
    UsageRepository,
    BillingService,
    BandwidthThresholdsRepository,
    BandwidthThresholds,
    TenantUsageService,
    UsageStatementsRepository,
    UsageStatementsService,
    MonthCloseJob,
    StatementReporter,
  ],
  exports: [BillingService, UsageStatementsService, StatementReporter],
})
export class BillingModule {}
