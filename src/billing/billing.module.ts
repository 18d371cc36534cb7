import { Module } from '@nestjs/common';
import { AdminUsageController } from './admin-usage.controller';
import { BillingService } from './billing.service';
import { ClockModule } from '../clock/clock.module';
import { UsageRepository } from './usage.repository';

/** Plans, usage meters and quota checks. */
@Module({
  controllers: [AdminUsageController],
  imports: [ClockModule],
  providers: [UsageRepository, BillingService],
  exports: [BillingService, ClockModule],
})
export class BillingModule {}
