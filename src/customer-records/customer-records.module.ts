import { Module } from '@nestjs/common';
import { TestClockRecordsModule } from '../test-clock-records/test-clock-records.module';
import { CustomerRecordsService } from './customer-records.service';
import { CustomersRepository } from './customers.repository';

/**
 * The customers table and its rules, for the modules that grant and read entitlements. A module
 * of its own so that CustomersModule (the customer routes, which read entitlements, products and
 * files) can depend on EntitlementsModule while EntitlementsModule depends on this one.
 */
@Module({
  imports: [TestClockRecordsModule],
  providers: [CustomersRepository, CustomerRecordsService],
  exports: [CustomerRecordsService],
})
export class CustomerRecordsModule {}
