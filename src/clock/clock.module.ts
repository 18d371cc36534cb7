import { Module } from '@nestjs/common';
import { Clock } from './clock';

/** Imported by every module that reads the time; Nest shares one Clock instance among them. */
@Module({
  providers: [Clock],
  exports: [Clock],
})
export class ClockModule {}
