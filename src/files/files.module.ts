import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module';
import { ClockModule } from '../clock/clock.module';
import { AppConfig } from '../config/app-config';
import { EntitlementsModule } from '../entitlements/entitlements.module';
import { ProductsModule } from '../products/products.module';
import { DownloadStatisticsService } from './download-statistics.service';
import { DownloadsRepository } from './downloads.repository';
import { DownloadsService } from './downloads.service';
import { FilesController } from './files.controller';
import { FilesRepository } from './files.repository';
import { FilesService } from './files.service';
import { LocalObjectStorage } from './storage/local-object-storage';
import { LocalStorageController } from './storage/local-storage.controller';
import { ObjectStorage } from './storage/object-storage';

/**
 * Files, upload/confirm/download and the object-storage port with its two adapters. Quotas are
 * billing's, links to products the products module's, uses of entitlements the entitlements
 * module's: each effect goes through its owner, in the request's transaction.
 */
@Module({
  imports: [BillingModule, ClockModule, EntitlementsModule, ProductsModule],
  controllers: [FilesController, LocalStorageController],
  providers: [
    FilesRepository,
    DownloadsRepository,
    FilesService,
    DownloadsService,
    DownloadStatisticsService,
    {
      provide: ObjectStorage,
      inject: [AppConfig],
      // The AWS SDK (~20 MB of memory) is loaded only when the S3 driver is configured.
      useFactory: async (config: AppConfig): Promise<ObjectStorage> =>
        config.storageDriver === 's3' ? new (await import('./storage/s3-object-storage')).S3ObjectStorage(config) : new LocalObjectStorage(config),
    },
  ],
  // DownloadsService: the portal's downloads go through the very same path (DESIGN §19).
  exports: [ObjectStorage, DownloadStatisticsService, DownloadsService],
})
export class FilesModule {}
