import { Global, Module } from '@nestjs/common';
import { FileCatalog } from '../products/file-catalog';
import { FileRecordsService } from './file-records.service';
import { FilesRepository } from './files.repository';

/**
 * The files table for other modules (customers lists deliverable files) and, as FileCatalog, for
 * products (which checks the ids it links). Global, so ProductsModule gets FileCatalog without
 * importing a module of the files folder above it.
 */
@Global()
@Module({
  providers: [FilesRepository, FileRecordsService, { provide: FileCatalog, useExisting: FileRecordsService }],
  exports: [FileRecordsService, FileCatalog],
})
export class FileRecordsModule {}
