import { Module } from '@nestjs/common';
import { EntitlementsModule } from '../entitlements/entitlements.module';
import { LicenseRecordsModule } from '../license-records/license-records.module';
import { TestClockRecordsModule } from '../test-clock-records/test-clock-records.module';
import { TestClocksController } from './test-clocks.controller';
import { TestClocksService } from './test-clocks.service';

/** Test clocks' routes (DESIGN §14); the table and "now for a customer" are TestClockRecordsModule's. */
@Module({
  imports: [TestClockRecordsModule, EntitlementsModule, LicenseRecordsModule],
  controllers: [TestClocksController],
  providers: [TestClocksService],
})
export class TestClocksModule {}
