import type { Tenant } from '../database/tenant';
import type { Reader } from '../database/transaction';

/**
 * What products asks of the files module, which sits above it (files link themselves to products
 * and check downloads against them): which of these ids are the tenant's files. The files module
 * provides it (FileRecordsModule), so the dependency between the two folders stays one-way.
 */
export abstract class FileCatalog {
  abstract existingIds(db: Reader, tenant: Tenant, fileIds: string[]): Promise<string[]>;
}
