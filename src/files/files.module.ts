import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module';
import { AppConfig } from '../config/app-config';
import { CustomerDownloadsController } from './customer-downloads.controller';
import { DownloadsRepository } from './downloads.repository';
import { DownloadsService } from './downloads.service';
import { FilesController } from './files.controller';
import { FilesRepository } from './files.repository';
import { FilesService } from './files.service';
import { LocalObjectStorage } from './storage/local-object-storage';
import { LocalStorageController } from './storage/local-storage.controller';
import { ObjectStorage } from './storage/object-storage';

/** Files, upload/confirm/download and the object-storage port with its two adapters. */
@Module({
  imports: [BillingModule],
  controllers: [FilesController, CustomerDownloadsController, LocalStorageController],
  providers: [
    FilesRepository,
    DownloadsRepository,
    FilesService,
    DownloadsService,
    {
      provide: ObjectStorage,
      inject: [AppConfig],
      // The AWS SDK (~20 MB of memory) is loaded only when the S3 driver is configured.
      useFactory: async (config: AppConfig): Promise<ObjectStorage> =>
        config.storageDriver === 's3' ? new (await import('./storage/s3-object-storage')).S3ObjectStorage(config) : new LocalObjectStorage(config),
    },
  ],
  exports: [FilesService, ObjectStorage],
})
export class FilesModule {}
