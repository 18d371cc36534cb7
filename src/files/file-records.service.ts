import type { SearchHit } from '../database/search-hit';
import { Injectable } from '@nestjs/common';
import type { Tenant } from '../database/tenant';
import type { Reader } from '../database/transaction';
import type { FileCatalog } from '../products/file-catalog';
import { FileEntity } from './file.entity';
import { FilesRepository } from './files.repository';

/** The files table for other modules: which files a tenant has, and which are ready to deliver. */
@Injectable()
export class FileRecordsService implements FileCatalog {
  constructor(private readonly files: FilesRepository) {}

  /** GET /v1/search's files (search/search.service.ts), read where the caller says (the replica). */
  search(db: Reader, tenant: Tenant, term: string, limit: number): Promise<SearchHit[]> {
    return this.files.search(db, tenant, term, limit);
  }

  /** Which of `fileIds` are files of this tenant (others' and unknown ids are left out). */
  existingIds(db: Reader, tenant: Tenant, fileIds: string[]): Promise<string[]> {
    return this.files.existingIds(db, tenant, fileIds);
  }

  /** The CONFIRMED files among `fileIds`, by id. */
  async confirmedFiles(db: Reader, tenant: Tenant, fileIds: string[]): Promise<Map<string, FileEntity>> {
    return new Map((await this.files.findConfirmed(db, tenant, [...new Set(fileIds)])).map((file) => [file.id, file]));
  }
}
