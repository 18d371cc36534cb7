import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { BillingModule } from '../billing/billing.module';
import { AdminStatementsController } from './admin-statements.controller';
import { AdminUsageController } from './admin-usage.controller';
import { AdminController } from './admin.controller';

/** The admin API (DESIGN §3): merchants and keys (auth), usage and statements (billing). */
@Module({
  imports: [AuthModule, BillingModule],
  controllers: [AdminController, AdminUsageController, AdminStatementsController],
})
export class AdminModule {}
