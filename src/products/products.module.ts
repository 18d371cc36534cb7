import { Module } from '@nestjs/common';
import { ProductBundleItemsRepository } from './product-bundle-items.repository';
import { ProductFilesRepository } from './product-files.repository';
import { ProductsController } from './products.controller';
import { ProductsRepository } from './products.repository';
import { ProductsService } from './products.service';

/** Products and their file links; checks linked file ids through FileCatalog, which the files module provides. */
@Module({
  controllers: [ProductsController],
  providers: [ProductsRepository, ProductFilesRepository, ProductBundleItemsRepository, ProductsService],
  exports: [ProductsService],
})
export class ProductsModule {}
