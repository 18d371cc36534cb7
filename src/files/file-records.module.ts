import { Module } from '@nestjs/common';
import { FileRecordsService } from './file-records.service';
import { FilesRepository } from './files.repository';

/**
 * The files table for the modules that FilesModule itself depends on (products checks the ids it
 * links, customers lists deliverable files). A module of its own so the dependencies stay
 * one-way: FilesModule → ProductsModule → FileRecordsModule.
 */
@Module({
  providers: [FilesRepository, FileRecordsService],
  exports: [FileRecordsService],
})
export class FileRecordsModule {}
