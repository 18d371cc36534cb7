import { Injectable } from '@nestjs/common';
import * as path from 'node:path';
import { Environment } from './config.schema';

/** Typed, read-only access to the validated configuration. */
@Injectable()
export class AppConfig {
  constructor(private readonly environment: Environment) {}

  /** Interface to listen on: every interface by default (containers); 127.0.0.1 keeps it local. */
  get host(): string {
    return this.environment.HOST;
  }
  get port(): number {
    return this.environment.PORT;
  }
  get isProduction(): boolean {
    return this.environment.NODE_ENV === 'production';
  }
  get databaseUrl(): string | undefined {
    return this.environment.DATABASE_URL;
  }
  get embeddedDatabase(): boolean {
    return this.environment.DATABASE_URL === undefined;
  }
  get dataDirectory(): string {
    return path.resolve(this.environment.DATA_DIR);
  }
  get storageDriver(): 'local' | 's3' {
    return this.environment.STORAGE_DRIVER;
  }
  get publicBaseUrl(): string {
    return (this.environment.PUBLIC_BASE_URL ?? `http://localhost:${this.environment.PORT}`).replace(/\/$/, '');
  }
  get localStorageSecret(): string | undefined {
    return this.environment.LOCAL_STORAGE_SECRET;
  }
  get s3(): {
    bucket: string | undefined;
    region: string;
    endpoint: string | undefined;
    forcePathStyle: boolean;
    accessKeyId: string | undefined;
    secretAccessKey: string | undefined;
  } {
    return {
      bucket: this.environment.S3_BUCKET,
      region: this.environment.S3_REGION,
      endpoint: this.environment.S3_ENDPOINT,
      forcePathStyle: this.environment.S3_FORCE_PATH_STYLE,
      accessKeyId: this.environment.S3_ACCESS_KEY_ID,
      secretAccessKey: this.environment.S3_SECRET_ACCESS_KEY,
    };
  }
  get redisUrl(): string | undefined {
    return this.environment.REDIS_URL;
  }
  get adminToken(): string | undefined {
    return this.environment.ADMIN_TOKEN;
  }
  get rateLimits(): { readPerMinute: number; writePerMinute: number; authFailuresPerMinute: number } {
    return {
      readPerMinute: this.environment.RATE_LIMIT_READ_PER_MINUTE,
      writePerMinute: this.environment.RATE_LIMIT_WRITE_PER_MINUTE,
      authFailuresPerMinute: this.environment.AUTH_FAILURE_LIMIT_PER_MINUTE,
    };
  }
  get webhookRetryScheduleMilliseconds(): number[] {
    return this.environment.WEBHOOK_RETRY_SCHEDULE;
  }
  get webhookAllowPrivateUrls(): boolean {
    return this.environment.WEBHOOK_ALLOW_PRIVATE_URLS;
  }
  get expirySweepIntervalMilliseconds(): number {
    return this.environment.EXPIRY_SWEEP_INTERVAL;
  }
  /** Tests boot many apps on empty databases and create their own merchants. */
  get skipDemoSeed(): boolean {
    return this.environment.SKIP_DEMO_SEED;
  }
  get logLevel(): Environment['LOG_LEVEL'] {
    return this.environment.LOG_LEVEL;
  }
}
