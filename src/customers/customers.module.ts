import { Module } from '@nestjs/common';
import { ClockModule } from '../clock/clock.module';
import { CustomersController } from './customers.controller';
import { CustomersRepository } from './customers.repository';
import { CustomersService } from './customers.service';

/** Customers and their entitlement lists; exports CustomersService for lookups by other modules. */
@Module({
  imports: [ClockModule],
  controllers: [CustomersController],
  providers: [CustomersRepository, CustomersService],
  exports: [CustomersService],
})
export class CustomersModule {}
