import { Module } from '@nestjs/common';

/** Plans, usage meters and quota checks (issue: files and delivery). */
@Module({})
export class BillingModule {}
