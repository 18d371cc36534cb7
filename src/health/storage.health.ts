import { Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import { AppConfig } from '../config/app-config';

/**
 * Readiness of object storage. The local driver needs a writable objects directory; the S3
 * driver's probe arrives with the Files module (until then it reports the configured bucket).
 */
@Injectable()
export class StorageHealthIndicator {
  constructor(
    private readonly config: AppConfig,
    private readonly health: HealthIndicatorService,
  ) {}

  async check(key: string): Promise<HealthIndicatorResult> {
    const indicator = this.health.check(key);
    if (this.config.storageDriver === 's3') return indicator.up({ driver: 's3', bucket: this.config.s3.bucket });
    const directory = path.join(this.config.dataDirectory, 'objects');
    try {
      await mkdir(directory, { recursive: true });
      await access(directory, constants.W_OK);
      return indicator.up({ driver: 'local' });
    } catch {
      return indicator.down({ driver: 'local', message: 'objects directory is not writable' });
    }
  }
}
