import { Module } from '@nestjs/common';

/** Customers and their entitlement and download lists (issue: entitlements). */
@Module({})
export class CustomersModule {}
