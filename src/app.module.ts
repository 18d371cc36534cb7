import { DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { AdminModule } from './admin/admin.module';
import { AuditModule } from './audit/audit.module';
import { ENTITIES } from './app-entities';
import { AccessGuard } from './auth/access.guard';
import { AuthModule } from './auth/auth.module';
import { BillingModule } from './billing/billing.module';
import { ConfigModule } from './config/config.module';
import { CustomerRecordsModule } from './customer-records/customer-records.module';
import { CustomersModule } from './customers/customers.module';
import { DashboardModule } from './dashboard/dashboard.module';
import { DatabaseModule } from './database/database.module';
import { DemoModule } from './demo/demo.module';
import { EntitlementsModule } from './entitlements/entitlements.module';
import { EnvelopeInterceptor } from './envelope/envelope.interceptor';
import { ResponseInterceptor } from './idempotency/response.interceptor';
import { FileRecordsModule } from './files/file-records.module';
import { FilesModule } from './files/files.module';
import { GrantRulesModule } from './grant-rules/grant-rules.module';
import { TestClocksModule } from './test-clocks/test-clocks.module';
import { HealthModule } from './health/health.module';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { ImportsModule } from './imports/imports.module';
import { LicensesModule } from './licenses/licenses.module';
import { LoggingModule } from './logging/logging.module';
import { ObservabilityModule } from './observability/observability.module';
import { CursorSecretInitializer } from './pagination/cursor-secret.initializer';
import { OrdersModule } from './orders/orders.module';
import { PortalModule } from './portal/portal.module';
import { ProductsModule } from './products/products.module';
import { RateLimitingModule } from './rate-limiting/rate-limiting.module';
import { SubscriptionsModule } from './subscriptions/subscriptions.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { SearchModule } from './search/search.module';

@Module({})
export class AppModule {
  /** `overrides` replace environment variables (tests); the result is validated like the environment. */
  static forRoot(overrides: Record<string, string | undefined> = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(overrides),
        LoggingModule,
        ObservabilityModule.forRoot({ serve: true }),
        EventEmitterModule.forRoot(),
        DatabaseModule.forRoot(ENTITIES),
        RateLimitingModule,
        AuthModule,
        HealthModule,
        AdminModule,
        FileRecordsModule,
        ProductsModule,
        CustomerRecordsModule,
        GrantRulesModule,
        TestClocksModule,
        EntitlementsModule,
        OrdersModule,
        CustomersModule,
        FilesModule,
        BillingModule,
        WebhooksModule,
        AuditModule,
        IdempotencyModule,
        SubscriptionsModule,
        SearchModule,
        ImportsModule,
        LicensesModule,
        PortalModule,
        DashboardModule,
        DemoModule,
      ],
      providers: [
        // Authentication, scope and rate limit, in that order, in one guard.
        // One instance: the direct routes (src/http/direct-router.ts) ask the same guard.
        AccessGuard,
        { provide: APP_GUARD, useExisting: AccessGuard },
        // Idempotency around the envelope, in one interceptor: it stores and replays the enveloped body.
        EnvelopeInterceptor,
        { provide: APP_INTERCEPTOR, useClass: ResponseInterceptor },
        CursorSecretInitializer,
      ],
    };
  }
}
