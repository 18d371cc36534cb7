import { Module } from '@nestjs/common';
import { FileRecordsModule } from '../files/file-records.module';
import { ProductBundleItemsRepository } from './product-bundle-items.repository';
import { ProductFilesRepository } from './product-files.repository';
import { ProductsController } from './products.controller';
import { ProductsRepository } from './products.repository';
import { ProductsService } from './products.service';

/** Products and their file links; checks linked file ids against the files module's records. */
@Module({
  imports: [FileRecordsModule],
  controllers: [ProductsController],
  providers: [ProductsRepository, ProductFilesRepository, ProductBundleItemsRepository, ProductsService],
  exports: [ProductsService],
})
export class ProductsModule {}
