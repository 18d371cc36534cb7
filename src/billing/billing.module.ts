import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ClockModule } from '../clock/clock.module';
import { BillingService } from './billing.service';
import { UsageRepository } from './usage.repository';

/** Plans, usage meters, storage reservations and quota checks; plans come from the merchants (auth). */
@Module({
  imports: [AuthModule, ClockModule],
  providers: [UsageRepository, BillingService],
  exports: [BillingService],
})
export class BillingModule {}
