import { Module } from '@nestjs/common';

/** Entitlements, the access check, lifecycle, expiry sweeper, idempotency (issue: entitlements). */
@Module({})
export class EntitlementsModule {}
