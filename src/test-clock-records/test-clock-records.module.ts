import { Module } from '@nestjs/common';
import { ClockModule } from '../clock/clock.module';
import { TestClockRecordsService } from './test-clock-records.service';
import { TestClockTime } from './test-clock-time.service';
import { TestClocksRepository } from './test-clocks.repository';

/**
 * The test_clocks table and "now for a customer", for the modules that grant and read
 * entitlements. A module of its own (as customer-records is) so that TestClocksModule, whose
 * advance runs the entitlements' expiry, can depend on EntitlementsModule while that one depends
 * on this.
 */
@Module({
  imports: [ClockModule],
  providers: [TestClocksRepository, TestClockTime, TestClockRecordsService],
  exports: [TestClockTime, TestClockRecordsService],
})
export class TestClockRecordsModule {}
