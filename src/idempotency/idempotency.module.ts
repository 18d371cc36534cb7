import { Module } from '@nestjs/common';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyPruner } from './idempotency-pruner';
import { IdempotencyService } from './idempotency.service';

/**
 * Idempotency-Key support for every POST under /v1. The global ResponseInterceptor (AppModule)
 * runs IdempotencyInterceptor around the envelope, so the stored body is the enveloped one.
 */
@Module({
  providers: [IdempotencyKeysRepository, IdempotencyService, IdempotencyInterceptor, IdempotencyPruner],
  exports: [IdempotencyService, IdempotencyInterceptor],
})
export class IdempotencyModule {}
