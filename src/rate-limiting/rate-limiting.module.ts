import { Global, Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { AuthFailureLimiter } from './auth-failure-limiter';
import { FixedWindowMemoryStorage } from './fixed-window-memory.storage';
import { RateLimiter } from './rate-limiter';
import { MerchantAdmission } from './merchant-admission';
import { AppConfig } from '../config/app-config';
import { RedisClient } from './redis-client';

@Module({ providers: [RedisClient], exports: [RedisClient] })
class RedisModule {}

@Global()
@Module({
  imports: [
    RedisModule,
    ThrottlerModule.forRootAsync({
      imports: [RedisModule],
      inject: [RedisClient],
      useFactory: (redis: RedisClient) => ({
        // RateLimiter applies the read and write budgets itself; the module provides the storage.
        throttlers: [],
        storage: redis.client ? new ThrottlerStorageRedisService(redis.client) : new FixedWindowMemoryStorage(),
      }),
    }),
  ],
  providers: [
    AuthFailureLimiter,
    RateLimiter,
    { provide: MerchantAdmission, inject: [AppConfig], useFactory: (config: AppConfig) => new MerchantAdmission(config.merchantAdmission) },
  ],
  exports: [AuthFailureLimiter, RateLimiter, MerchantAdmission, ThrottlerModule, RedisModule],
})
export class RateLimitingModule {}
