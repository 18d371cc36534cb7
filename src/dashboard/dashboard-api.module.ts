import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module';
import { ClockModule } from '../clock/clock.module';
import { FilesModule } from '../files/files.module';
import { DashboardAccountsModule } from './dashboard-accounts.module';
import { DashboardApiController } from './dashboard-api.controller';
import { DashboardTeamController } from './dashboard-team.controller';
import { DashboardTeamService } from './dashboard-team.service';

/**
 * The dashboard app's own JSON routes (/dashboard/api/). A module of their own: the dashboard's
 * OpenAPI document is built from exactly this module, and the public one from every other.
 */
@Module({
  imports: [DashboardAccountsModule, BillingModule, ClockModule, FilesModule],
  controllers: [DashboardApiController, DashboardTeamController],
  providers: [DashboardTeamService],
})
export class DashboardApiModule {}
