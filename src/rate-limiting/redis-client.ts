import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../config/app-config';

/** The shared Redis connection when REDIS_URL is set; null otherwise (counters stay in memory). */
@Injectable()
export class RedisClient implements OnApplicationShutdown {
  readonly client: Redis | null;

  constructor(config: AppConfig) {
    this.client = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true }) : null;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client?.quit().catch(() => undefined);
  }
}
