import { Module } from '@nestjs/common';
import { ClockModule } from '../clock/clock.module';
import { EntitlementsModule } from '../entitlements/entitlements.module';
import { FileRecordsModule } from '../files/file-records.module';
import { ProductsModule } from '../products/products.module';
import { CustomerRecordsModule } from '../customer-records/customer-records.module';
import { CustomersController } from './customers.controller';
import { CustomersService } from './customers.service';

/** The customer routes: a customer's entitlements and downloads, read through their owners. */
@Module({
  imports: [ClockModule, CustomerRecordsModule, EntitlementsModule, ProductsModule, FileRecordsModule],
  controllers: [CustomersController],
  providers: [CustomersService],
})
export class CustomersModule {}
