import { searchTable, type SearchableTable, type SearchHit } from '../database/search-hit';
import { isValidId } from '../ids/id';
import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { entityFromJson, ReadPart } from '../database/combined-statement';
import type { Tenant } from '../database/tenant';
import { TenantTable, WithoutTenant } from '../database/tenant-table';
import type { Reader, Transaction } from '../database/transaction';
import { fetchPageWithTotal } from '../pagination/keyset';
import { PageRequest } from '../pagination/page';
import { FileEntity, UploadStatus } from './file.entity';

export interface FileFilters {
  /** Only these files (a product's). */
  ids?: string[];
  uploadStatus?: UploadStatus;
}

export type NewFile = WithoutTenant<Omit<FileEntity, 'merchant' | 'created_at' | 'updated_at'>>;

const FILE_SEARCH: SearchableTable = { table: 'files', storeIdColumn: null, labelSql: 'file_name' };

@Injectable()
export class FilesRepository {
  private readonly table = new TenantTable(FileEntity, 'file');

  findById(db: Reader, tenant: Tenant, fileId: string): Promise<FileEntity | null> {
    return this.table.findOne(db.manager, tenant, { id: fileId });
  }

  /** The file as a part of a combined read; null when the tenant has none. */
  findPart(tenant: Tenant, fileId: string): ReadPart<FileEntity | null> {
    return {
      render: (parameters) =>
        `SELECT to_jsonb(f) FROM files f WHERE f.merchant_id = ${parameters.text(tenant.merchantId)} AND f.mode = ${parameters.text(tenant.mode)} AND f.id = ${parameters.text(fileId)}`,
      parse: (value, manager) => (value === null || value === undefined ? null : entityFromJson(manager, FileEntity, value as Record<string, unknown>)),
    };
  }

  /** The file row locked for the rest of the transaction (confirm). */
  lockById(tx: Transaction, tenant: Tenant, fileId: string): Promise<FileEntity | null> {
    return this.table.lockById(tx.manager, tenant, fileId);
  }

  async delete(tx: Transaction, tenant: Tenant, fileId: string): Promise<void> {
    await this.table.delete(tx.manager, tenant, { id: fileId });
  }

  insert(tx: Transaction, tenant: Tenant, file: NewFile): Promise<FileEntity> {
    return this.table.insert(tx.manager, tenant, file as QueryDeepPartialEntity<FileEntity>);
  }

  /** PENDING → CONFIRMED with the stored size; returns the row as it is now. */
  async markConfirmed(tx: Transaction, tenant: Tenant, fileId: string, actualBytes: number, confirmedAt: Date): Promise<FileEntity> {
    await this.table.update(tx.manager, tenant, { id: fileId }, { file_size: actualBytes, upload_status: 'CONFIRMED', confirmed_at: confirmedAt });
    const file = await this.findById(tx, tenant, fileId);
    if (!file) throw new Error(`File ${fileId} vanished inside its own transaction`);
    return file;
  }

  /** Which of `fileIds` are files of this tenant. */
  async existingIds(db: Reader, tenant: Tenant, fileIds: string[]): Promise<string[]> {
    if (fileIds.length === 0) return [];
    const rows = await this.table.select(db.manager, tenant).select('file.id', 'id').andWhere('file.id IN (:...fileIds)', { fileIds }).getRawMany<{ id: string }>();
    return rows.map((row) => row.id);
  }

  /** CONFIRMED files of this tenant among `fileIds`. */
  findConfirmed(db: Reader, tenant: Tenant, fileIds: string[]): Promise<FileEntity[]> {
    if (fileIds.length === 0) return Promise.resolve([]);
    return this.table.find(db.manager, tenant, { id: In(fileIds), upload_status: 'CONFIRMED' });
  }

  /** One keyset page (limit + 1 rows) and the total, newest first. */
  async list(db: Reader, tenant: Tenant, filters: FileFilters, page: PageRequest): Promise<{ rows: FileEntity[]; total: number }> {
    const base = () => {
      const query = this.table.select(db.manager, tenant);
      if (filters.ids !== undefined) query.andWhere('file.id = ANY(:ids)', { ids: filters.ids });
      if (filters.uploadStatus !== undefined) query.andWhere('file.upload_status = :uploadStatus', { uploadStatus: filters.uploadStatus });
      return query;
    };
    return fetchPageWithTotal(base, 'file', page);
  }

  /** GET /v1/search: the file with this id, or those whose store id starts with the term (by id only (it has no store id)). */
  search(db: Reader, tenant: Tenant, term: string, limit: number): Promise<SearchHit[]> {
    return searchTable(db, tenant, FILE_SEARCH, term, isValidId('file', term) ? term : null, limit);
  }
}
