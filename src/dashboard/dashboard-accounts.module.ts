import { Global, Module } from '@nestjs/common';
import { DASHBOARD_SESSION_LOOKUP, DASHBOARD_USER_INVITER } from '../auth/dashboard-session-lookup';
import { ClockModule } from '../clock/clock.module';
import { DashboardPruning } from './dashboard-pruning';
import { DashboardPruningRepository } from './dashboard-pruning.repository';
import { DashboardSessionsRepository } from './dashboard-sessions.repository';
import { DashboardSessionsService } from './dashboard-sessions.service';
import { DashboardUsersRepository } from './dashboard-users.repository';
import { DashboardUsersService } from './dashboard-users.service';
import { TeamChanges } from './team-changes.service';

/**
 * Dashboard users, setup links and sessions, without HTTP: the CLI's users:create uses it too.
 * Global so the request authenticator (auth) finds the session lookup without depending on it.
 */
@Global()
@Module({
  imports: [ClockModule],
  providers: [
    DashboardUsersRepository,
    DashboardSessionsRepository,
    DashboardSessionsService,
    DashboardUsersService,
    TeamChanges,
    DashboardPruningRepository,
    DashboardPruning,
    { provide: DASHBOARD_SESSION_LOOKUP, useExisting: DashboardSessionsService },
    { provide: DASHBOARD_USER_INVITER, useExisting: DashboardUsersService },
  ],
  exports: [DASHBOARD_SESSION_LOOKUP, DASHBOARD_USER_INVITER, DashboardSessionsService, DashboardUsersService, DashboardUsersRepository, TeamChanges],
})
export class DashboardAccountsModule {}
