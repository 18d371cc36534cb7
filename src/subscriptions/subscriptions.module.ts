import { Module } from '@nestjs/common';
import { TestClockRecordsModule } from '../test-clock-records/test-clock-records.module';
import { CustomerRecordsModule } from '../customer-records/customer-records.module';
import { EntitlementsModule } from '../entitlements/entitlements.module';
import { ProductsModule } from '../products/products.module';
import { SubscriptionsController } from './subscriptions.controller';
import { SubscriptionsRepository } from './subscriptions.repository';
import { SubscriptionsService } from './subscriptions.service';

/** Store subscriptions driving subscription_linked entitlements (DESIGN §10). */
@Module({
  imports: [TestClockRecordsModule, CustomerRecordsModule, ProductsModule, EntitlementsModule],
  controllers: [SubscriptionsController],
  providers: [SubscriptionsRepository, SubscriptionsService],
  exports: [SubscriptionsService],
})
export class SubscriptionsModule {}
