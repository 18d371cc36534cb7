import { Module } from '@nestjs/common';
import { ClockModule } from '../clock/clock.module';
import { CustomersModule } from '../customers/customers.module';
import { EntitlementExpirySweeper } from './entitlement-expiry.sweeper';
import { EntitlementLifecycleService } from './entitlement-lifecycle.service';
import { EntitlementsController } from './entitlements.controller';
import { EntitlementsRepository } from './entitlements.repository';
import { EntitlementsService } from './entitlements.service';

/** Entitlements: the access check, grants, lifecycle operations and the expiry sweeper. */
@Module({
  imports: [ClockModule, CustomersModule],
  controllers: [EntitlementsController],
  providers: [EntitlementsRepository, EntitlementsService, EntitlementLifecycleService, EntitlementExpirySweeper],
  exports: [EntitlementsService, EntitlementExpirySweeper],
})
export class EntitlementsModule {}
