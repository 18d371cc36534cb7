import { Module } from '@nestjs/common';
import { ClockModule } from '../clock/clock.module';
import { AppConfig } from '../config/app-config';
import { CustomerRecordsModule } from '../customer-records/customer-records.module';
import { GrantRulesModule } from '../grant-rules/grant-rules.module';
import { LicenseRecordsModule } from '../license-records/license-records.module';
import { ProductsModule } from '../products/products.module';
import { TestClockRecordsModule } from '../test-clock-records/test-clock-records.module';
import { EntitlementExpirySweeper } from './entitlement-expiry.sweeper';
import { EntitlementGrantsService } from './entitlement-grants.service';
import { EntitlementCombinedGrantService } from './entitlement-combined-grant.service';
import { EntitlementGrantResolutionService } from './entitlement-grant-resolution.service';
import { EntitlementTransitionsService } from './entitlement-transitions.service';
import { EntitlementsController } from './entitlements.controller';
import { EntitlementsRepository } from './entitlements.repository';
import { EntitlementsService } from './entitlements.service';
import { EntitlementSigningKeys } from './tokens/entitlement-signing-keys';
import { EntitlementTokensController } from './tokens/entitlement-tokens.controller';
import { EntitlementTokensService } from './tokens/entitlement-tokens.service';
import { JwksController } from './tokens/jwks.controller';

/**
 * Entitlements: the access check, grants, lifecycle operations, uses and the expiry sweeper.
 * EntitlementGrantResolutionService (grants) and EntitlementTransitionsService (operations, uses)
 * are the API other modules create and change entitlements through, in their own transaction; customers and products are read through their owners. Also signed
 * entitlement tokens (tokens/) and their JWKS.
 */
@Module({
  imports: [ClockModule, CustomerRecordsModule, ProductsModule, GrantRulesModule, TestClockRecordsModule, LicenseRecordsModule],
  controllers: [EntitlementsController, EntitlementTokensController, JwksController],
  providers: [
    EntitlementsRepository,
    EntitlementsService,
    EntitlementGrantResolutionService,
    EntitlementCombinedGrantService,
    EntitlementTransitionsService,
    EntitlementGrantsService,
    EntitlementExpirySweeper,
    EntitlementTokensService,
    {
      provide: EntitlementSigningKeys,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        EntitlementSigningKeys.load({
          configuredKey: config.entitlementSigningKey,
          dataDirectory: config.dataDirectory,
          tokenTtlMilliseconds: config.entitlementTokenTtlMilliseconds,
        }),
    },
  ],
  exports: [EntitlementsService, EntitlementGrantResolutionService, EntitlementTransitionsService, EntitlementExpirySweeper, EntitlementSigningKeys],
})
export class EntitlementsModule {}
