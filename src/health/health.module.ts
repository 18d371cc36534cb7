import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { FilesModule } from '../files/files.module';
import { HealthController } from './health.controller';
import { StorageHealthIndicator } from './storage.health';

@Module({
  imports: [TerminusModule.forRoot({ logger: false }), FilesModule],
  controllers: [HealthController],
  providers: [StorageHealthIndicator],
})
export class HealthModule {}
