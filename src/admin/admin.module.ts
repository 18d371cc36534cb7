import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { BillingModule } from '../billing/billing.module';
import { AdminUsageController } from './admin-usage.controller';
import { AdminController } from './admin.controller';

/** The admin API (DESIGN §3): merchants and keys (auth), usage (billing). */
@Module({
  imports: [AuthModule, BillingModule],
  controllers: [AdminController, AdminUsageController],
})
export class AdminModule {}
