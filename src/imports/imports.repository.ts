import { Injectable } from '@nestjs/common';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { ApiMode, Tenant } from '../database/tenant';
import { assertTenant, TenantTable, WithoutTenant } from '../database/tenant-table';
import type { Reader, Transaction } from '../database/transaction';
import { fetchPageWithTotal } from '../pagination/keyset';
import { PageRequest } from '../pagination/page';
import { EntitlementImportEntity } from './entitlement-import.entity';
import type { ImportRowStatus } from './import-row.entity';

export type NewImport = WithoutTenant<Omit<EntitlementImportEntity, 'merchant' | 'created_at' | 'updated_at'>>;
export type ImportProgress = Pick<EntitlementImportEntity, 'status' | 'processed_rows' | 'granted' | 'skipped' | 'failed' | 'errors' | 'completed_at'>;

/** A batch of pending rows the worker holds (FOR UPDATE) until its transaction ends. */
export interface ClaimedBatch {
  importId: string;
  /** The import's test clock (DESIGN §14), or null. */
  testClockId: string | null;
  tenant: Tenant;
  rows: Array<{ row_number: number; data: unknown }>;
}

/** What became of one row. */
export interface RowOutcome {
  rowNumber: number;
  status: Exclude<ImportRowStatus, 'pending'>;
  entitlementId: string | null;
  errorCode: string | null;
  errorMessage: string | null;
}

/** Unfinished imports a claim looks at, least recently progressed first (the others wait a turn). */
const CLAIM_CANDIDATES = 20;

@Injectable()
export class ImportsRepository {
  private readonly imports = new TenantTable(EntitlementImportEntity, 'entitlement_import');

  findById(db: Reader, tenant: Tenant, importId: string): Promise<EntitlementImportEntity | null> {
    return this.imports.findOne(db.manager, tenant, { id: importId });
  }

  lockById(tx: Transaction, tenant: Tenant, importId: string): Promise<EntitlementImportEntity | null> {
    return this.imports.lockById(tx.manager, tenant, importId);
  }

  insert(tx: Transaction, tenant: Tenant, entitlementImport: NewImport): Promise<EntitlementImportEntity> {
    return this.imports.insert(tx.manager, tenant, entitlementImport as QueryDeepPartialEntity<EntitlementImportEntity>);
  }

  /** Stores every data row as pending, in one statement (row numbers from 1). */
  /** One batch of rows, numbered from `rowsBefore + 1` (the rows already stored precede it). */
  async insertRows(tx: Transaction, tenant: Tenant, importId: string, rows: unknown[], rowsBefore: number): Promise<void> {
    assertTenant(tenant);
    await tx.manager.query(
      `INSERT INTO import_rows (import_id, row_number, merchant_id, mode, data, status)
       SELECT $1, $5::int + ordinality, $2, $3, data, 'pending' FROM unnest($4::jsonb[]) WITH ORDINALITY AS row(data, ordinality)`,
      [importId, tenant.merchantId, tenant.mode, rows.map((row) => JSON.stringify(row)), rowsBefore],
    );
  }

  /** The import's row count, once every batch of its body is stored. */
  async setTotalRows(tx: Transaction, tenant: Tenant, importId: string, totalRows: number): Promise<EntitlementImportEntity> {
    await this.imports.update(tx.manager, tenant, { id: importId }, { total_rows: totalRows } as QueryDeepPartialEntity<EntitlementImportEntity>);
    const saved = await this.findById(tx, tenant, importId);
    if (!saved) throw new Error(`Import ${importId} vanished inside its own transaction`);
    return saved;
  }

  /**
   * Refreshes the planner's statistics of import_rows after a large import was stored: with the
   * statistics of an emptier table the batches' statements would be planned as scans of it (each
   * batch seconds instead of milliseconds). Skipped when another ANALYZE holds the table.
   */
  async refreshStatistics(db: Reader): Promise<void> {
    await db.manager.query('ANALYZE (SKIP_LOCKED) import_rows');
  }

  async saveProgress(tx: Transaction, tenant: Tenant, importId: string, progress: ImportProgress): Promise<EntitlementImportEntity> {
    await this.imports.update(tx.manager, tenant, { id: importId }, progress as QueryDeepPartialEntity<EntitlementImportEntity>);
    const saved = await this.findById(tx, tenant, importId);
    if (!saved) throw new Error(`Import ${importId} vanished inside its own transaction`);
    return saved;
  }

  list(db: Reader, tenant: Tenant, page: PageRequest): Promise<{ rows: EntitlementImportEntity[]; total: number }> {
    return fetchPageWithTotal(() => this.imports.select(db.manager, tenant), 'entitlement_import', page);
  }

  /**
   * Maintenance across tenants (the worker serves every merchant): up to `limit` pending rows of
   * one import, in row order, locked with SKIP LOCKED so several workers (or instances) never take
   * the same row, and a row whose batch is still running is left to it. Imports take turns: the
   * one that progressed least recently goes first, so a large import never holds up a small one.
   */
  async claimBatchAcrossTenants(tx: Transaction, limit: number): Promise<ClaimedBatch | null> {
    const candidates: Array<{ id: string; merchant_id: string; mode: ApiMode; test_clock_id: string | null }> = await tx.manager.query(
      `SELECT id, merchant_id, mode, test_clock_id FROM entitlement_imports WHERE status IN ('queued', 'running')
       ORDER BY updated_at, id LIMIT $1`,
      [CLAIM_CANDIDATES],
    );
    for (const candidate of candidates) {
      const rows: Array<{ row_number: number; data: unknown }> = await tx.manager.query(
        `SELECT row_number, data FROM import_rows WHERE import_id = $1 AND status = 'pending'
         ORDER BY row_number LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [candidate.id, limit],
      );
      if (rows.length > 0) return { importId: candidate.id, testClockId: candidate.test_clock_id, tenant: { merchantId: candidate.merchant_id, mode: candidate.mode }, rows };
    }
    return null;
  }

  /** Records each row's outcome, in one statement. */
  async saveOutcomes(tx: Transaction, tenant: Tenant, importId: string, outcomes: RowOutcome[]): Promise<void> {
    assertTenant(tenant);
    await tx.manager.query(
      `UPDATE import_rows AS target SET status = outcome.status, entitlement_id = outcome.entitlement_id,
         error_code = outcome.error_code, error_message = outcome.error_message
       FROM unnest($4::int[], $5::text[], $6::text[], $7::text[], $8::text[])
         AS outcome(row_number, status, entitlement_id, error_code, error_message)
       WHERE target.import_id = $1 AND target.merchant_id = $2 AND target.mode = $3
         AND target.row_number = ANY($4::int[]) AND target.row_number = outcome.row_number`,
      [
        importId,
        tenant.merchantId,
        tenant.mode,
        outcomes.map((outcome) => outcome.rowNumber),
        outcomes.map((outcome) => outcome.status),
        outcomes.map((outcome) => outcome.entitlementId),
        outcomes.map((outcome) => outcome.errorCode),
        outcomes.map((outcome) => outcome.errorMessage),
      ],
    );
  }
}

