import { Module } from '@nestjs/common';
import { CustomerRecordsModule } from '../customer-records/customer-records.module';
import { EntitlementsModule } from '../entitlements/entitlements.module';
import { FileRecordsModule } from '../files/file-records.module';
import { OrdersModule } from '../orders/orders.module';
import { ProductsModule } from '../products/products.module';
import { SubscriptionsModule } from '../subscriptions/subscriptions.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { SearchController } from './search.controller';
import { SearchService } from './search.service';

/** GET /v1/search: reads every kind through its owner's exported service. */
@Module({
  imports: [CustomerRecordsModule, EntitlementsModule, ProductsModule, OrdersModule, SubscriptionsModule, FileRecordsModule, WebhooksModule],
  controllers: [SearchController],
  providers: [SearchService],
})
export class SearchModule {}
