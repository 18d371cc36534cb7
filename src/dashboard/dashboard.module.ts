import { Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { DASHBOARD_PATH } from '../logging/startup-summary';
import { DashboardAccountsModule } from './dashboard-accounts.module';
import { DashboardApiModule } from './dashboard-api.module';
import { DashboardUsersAdminController } from './dashboard-users-admin.controller';

/** The merchant dashboard (DESIGN §11): its JSON routes and the admin API's users; the web app itself is served by src/http/. */
@Module({
  imports: [DashboardAccountsModule, DashboardApiModule],
  controllers: [DashboardUsersAdminController],
  // Start-up prints the dashboard's URL when it is served (DASHBOARD_ENABLED).
  providers: [{ provide: DASHBOARD_PATH, useFactory: (config: AppConfig): string | null => (config.dashboardEnabled ? '/dashboard' : null), inject: [AppConfig] }],
})
export class DashboardModule {}
