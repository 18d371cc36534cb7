import { Module } from '@nestjs/common';
import { TestClockRecordsModule } from '../test-clock-records/test-clock-records.module';
import { ClockModule } from '../clock/clock.module';
import { CustomerRecordsModule } from '../customer-records/customer-records.module';
import { EntitlementsModule } from '../entitlements/entitlements.module';
import { ProductsModule } from '../products/products.module';
import { ImportBatchProcessor } from './import-batch.processor';
import { ImportWorker } from './import-worker';
import { ImportsController } from './imports.controller';
import { ImportsRepository } from './imports.repository';
import { ImportsService } from './imports.service';

/** Bulk entitlement imports, processed in the background (DESIGN §10). */
@Module({
  imports: [ClockModule, CustomerRecordsModule, ProductsModule, EntitlementsModule, TestClockRecordsModule],
  controllers: [ImportsController],
  providers: [ImportsRepository, ImportsService, ImportBatchProcessor, ImportWorker],
  exports: [ImportsService, ImportWorker],
})
export class ImportsModule {}
