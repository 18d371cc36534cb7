import { DynamicModule, Module, Type } from '@nestjs/common';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { AuditRecordsModule } from '../audit/audit-records.module';
import { AuthModule } from '../auth/auth.module';
import { BillingModule } from '../billing/billing.module';
import { ConfigModule } from '../config/config.module';
import { DashboardAccountsModule } from '../dashboard/dashboard-accounts.module';
import { DatabaseModule } from '../database/database.module';
import { ObservabilityModule } from '../observability/observability.module';
import type { EntityList } from '../database/data-source-options';
import { RateLimitingModule } from '../rate-limiting/rate-limiting.module';
import { CLI_CONNECT_TIMEOUT_MILLISECONDS } from './database-probe';

/** The services the CLI drives: the same ones behind the admin API, without HTTP. */
@Module({})
export class CliModule {
  static forRoot(entities: EntityList, commandModules: Type[] = []): DynamicModule {
    return {
      module: CliModule,
      // The CLI must print only its JSON: no demo seeding on this connection.
      imports: [
        // Connections wait as long as the probe did (DATABASE_ACQUIRE_TIMEOUT's default is 5 s), with no retry: a database
        // gone between the probe and the boot is a clear error too.
        ConfigModule.forRoot({ SKIP_DEMO_SEED: 'true', DATABASE_ACQUIRE_TIMEOUT: `${CLI_CONNECT_TIMEOUT_MILLISECONDS}ms` }),
        EventEmitterModule.forRoot(),
        ObservabilityModule.forRoot({ serve: false }),
        DatabaseModule.forRoot(entities, { startupRetries: 0 }),
        // AuthModule's request authenticator needs the failure limiter, though the CLI serves no HTTP.
        RateLimitingModule,
        AuthModule,
        // Every write the CLI makes records its audit row (DESIGN §11).
        AuditRecordsModule,
        BillingModule,
        // A command's own modules (import: the imports worker and the outbox), loaded only for it.
        ...commandModules,
        DashboardAccountsModule,
      ],
    };
  }
}
