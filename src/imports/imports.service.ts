import { Injectable } from '@nestjs/common';
import type { Tenant } from '../database/tenant';
import type { Operation } from '../database/operation';
import { UnitOfWork } from '../database/unit-of-work';
import { PageResult } from '../envelope/page-result';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { generateId, isValidId } from '../ids/id';
import { toPageRequest, toPageResult } from '../pagination/page';
import { PaginationQueryDto } from '../pagination/pagination-query.dto';
import { ImportResponseDto } from './dto/import-response.dto';
import { importRowBatches, importTestClockOf } from './import-body';
import { ImportWorker } from './import-worker';
import { toImportResponse } from './import.mapper';
import { ImportsRepository } from './imports.repository';
import { TestClockTime } from '../test-clock-records/test-clock-time.service';

/** An import this large changes import_rows enough to refresh its statistics before the batches run. */
const STATISTICS_REFRESH_ROWS = 1_000;

/** Entitlement imports (DESIGN §10): stored with their rows in one transaction, processed by ImportWorker. */
@Injectable()
export class ImportsService {
  constructor(
    private readonly imports: ImportsRepository,
    private readonly worker: ImportWorker,
    private readonly unitOfWork: UnitOfWork,
    private readonly testClocks: TestClockTime,
  ) {}

  /**
   * Stores the import (queued) and every row (pending), then wakes the worker. The body is parsed
   * and its rows written a batch at a time, so a large import holds one batch in memory, not all
   * of its rows; a refused one rolls back with nothing stored.
   */
  async create(operation: Operation, body: unknown): Promise<ImportResponseDto> {
    const tenant = operation.tenant;
    const testClockId = importTestClockOf(body);
    let total = 0;
    const created = await this.unitOfWork.run(operation, async (tx) => {
      total = 0;
      if (testClockId !== null) await this.testClocks.holdForWrite(tx, tenant, testClockId);
      const entitlementImport = await this.imports.insert(tx, tenant, {
        id: generateId('imp'),
        test_clock_id: testClockId,
        status: 'queued',
        total_rows: 0,
        processed_rows: 0,
        granted: 0,
        skipped: 0,
        failed: 0,
        errors: [],
        completed_at: null,
      });
      for await (const batch of importRowBatches(body)) {
        await this.imports.insertRows(tx, tenant, entitlementImport.id, batch, total);
        total += batch.length;
      }
      return toImportResponse(await this.imports.setTotalRows(tx, tenant, entitlementImport.id, total));
    });
    if (total >= STATISTICS_REFRESH_ROWS) await this.imports.refreshStatistics(this.unitOfWork.pool);
    this.worker.wake();
    return created;
  }

  async get(tenant: Tenant, importId: string): Promise<ImportResponseDto> {
    const entitlementImport = isValidId('imp', importId) ? await this.imports.findById(this.unitOfWork.pool, tenant, importId) : null;
    if (!entitlementImport) throw new ApiError(ErrorCode.IMPORT_NOT_FOUND, `No entitlement import with id '${importId}'`);
    return toImportResponse(entitlementImport);
  }

  async list(tenant: Tenant, query: PaginationQueryDto): Promise<PageResult<ImportResponseDto>> {
    const page = toPageRequest(query);
    const { rows, total } = await this.imports.list(this.unitOfWork.replica, tenant, page);
    return toPageResult(rows, page, (row) => row.created_at, toImportResponse, total);
  }
}
