import { Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { ObjectStorage } from '../files/storage/object-storage';

/** Readiness of object storage through the port: the local directory is writable, or the S3 bucket answers HeadBucket. */
@Injectable()
export class StorageHealthIndicator {
  constructor(
    private readonly storage: ObjectStorage,
    private readonly health: HealthIndicatorService,
  ) {}

  async check(key: string): Promise<HealthIndicatorResult> {
    const indicator = this.health.check(key);
    try {
      await this.storage.checkReady();
      return indicator.up({ driver: this.storage.driver });
    } catch (error: unknown) {
      // The reason stays in the logs' domain: only the driver and a generic message are shown.
      return indicator.down({ driver: this.storage.driver, message: 'object storage is not reachable', reason: error instanceof Error ? error.name : 'unknown' });
    }
  }
}
