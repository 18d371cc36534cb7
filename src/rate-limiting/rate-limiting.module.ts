import { Global, Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { AppConfig } from '../config/app-config';
import { AuthFailureLimiter } from './auth-failure-limiter';
import { isReadRequest, READ_THROTTLER, WRITE_THROTTLER } from './rate-limit.guard';
import { FixedWindowMemoryStorage } from './fixed-window-memory.storage';
import { RedisClient } from './redis-client';

@Module({ providers: [RedisClient], exports: [RedisClient] })
class RedisModule {}

@Global()
@Module({
  imports: [
    RedisModule,
    ThrottlerModule.forRootAsync({
      imports: [RedisModule],
      inject: [AppConfig, RedisClient],
      useFactory: (config: AppConfig, redis: RedisClient) => ({
        throttlers: [
          {
            name: READ_THROTTLER,
            ttl: 60_000,
            limit: config.rateLimits.readPerMinute,
            skipIf: (context) => !isReadRequest(context),
          },
          {
            name: WRITE_THROTTLER,
            ttl: 60_000,
            limit: config.rateLimits.writePerMinute,
            skipIf: (context) => isReadRequest(context),
          },
        ],
        storage: redis.client ? new ThrottlerStorageRedisService(redis.client) : new FixedWindowMemoryStorage(),
      }),
    }),
  ],
  providers: [AuthFailureLimiter],
  exports: [AuthFailureLimiter, ThrottlerModule, RedisModule],
})
export class RateLimitingModule {}
