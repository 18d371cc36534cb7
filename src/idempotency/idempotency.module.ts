import { Module } from '@nestjs/common';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyPruner } from './idempotency-pruner';
import { IdempotencyService } from './idempotency.service';

/**
 * Idempotency-Key support for every POST under /v1. AppModule registers IdempotencyInterceptor
 * as the first APP_INTERCEPTOR (before the envelope's), so it is the outermost one: global
 * interceptors run in registration order and AppModule's own providers register before any
 * imported module's, so registering it here would put it inside the envelope.
 */
@Module({
  providers: [IdempotencyKeysRepository, IdempotencyService, IdempotencyInterceptor, IdempotencyPruner],
  exports: [IdempotencyService, IdempotencyInterceptor],
})
export class IdempotencyModule {}
