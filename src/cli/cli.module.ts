import { DynamicModule, Module } from '@nestjs/common';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { AuthModule } from '../auth/auth.module';
import { BillingModule } from '../billing/billing.module';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { RateLimitingModule } from '../rate-limiting/rate-limiting.module';

/** The services the CLI drives: the same ones behind the admin API, without HTTP. */
@Module({})
export class CliModule {
  static forRoot(): DynamicModule {
    return {
      module: CliModule,
      // The CLI must print only its JSON: no demo seeding on this connection.
      imports: [
        ConfigModule.forRoot({ SKIP_DEMO_SEED: 'true' }),
        EventEmitterModule.forRoot(),
        DatabaseModule,
        // The admin usage controller's guard needs the limiter even though the CLI serves no HTTP.
        RateLimitingModule,
        AuthModule,
        BillingModule,
      ],
    };
  }
}
