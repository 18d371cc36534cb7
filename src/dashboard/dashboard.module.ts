import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module';
import { ClockModule } from '../clock/clock.module';
import { AppConfig } from '../config/app-config';
import { FilesModule } from '../files/files.module';
import { DASHBOARD_PATH } from '../logging/startup-summary';
import { DashboardAccountsModule } from './dashboard-accounts.module';
import { DashboardApiController } from './dashboard-api.controller';
import { DashboardUsersAdminController } from './dashboard-users-admin.controller';

/** The merchant dashboard's routes (DESIGN §11); the web app itself is served by src/http/. */
@Module({
  imports: [DashboardAccountsModule, BillingModule, ClockModule, FilesModule],
  controllers: [DashboardApiController, DashboardUsersAdminController],
  // Start-up prints the dashboard's URL when it is served (DASHBOARD_ENABLED).
  providers: [{ provide: DASHBOARD_PATH, useFactory: (config: AppConfig): string | null => (config.dashboardEnabled ? '/dashboard' : null), inject: [AppConfig] }],
})
export class DashboardModule {}
