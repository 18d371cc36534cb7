import { Module } from '@nestjs/common';
import { CustomerRecordsModule } from '../customer-records/customer-records.module';
import { EntitlementsModule } from '../entitlements/entitlements.module';
import { ProductsModule } from '../products/products.module';
import { OrdersController } from './orders.controller';
import { OrdersRepository } from './orders.repository';
import { OrdersService } from './orders.service';

/** Store orders and refunds (DESIGN §10): grants and revokes through the entitlements module, in the order's transaction. */
@Module({
  imports: [CustomerRecordsModule, ProductsModule, EntitlementsModule],
  controllers: [OrdersController],
  providers: [OrdersRepository, OrdersService],
  exports: [OrdersService],
})
export class OrdersModule {}
