import { Injectable } from '@nestjs/common';
import type { Tenant } from '../database/tenant';
import { Clock } from '../clock/clock';
import { Metrics } from '../observability/metrics';
import { CustomerRecordsService } from '../customer-records/customer-records.service';
import { UnitOfWork } from '../database/unit-of-work';
import type { Transaction } from '../database/transaction';
import { EntitlementGrantResolutionService, ResolvedGrant } from '../entitlements/entitlement-grant-resolution.service';
import { EntitlementsService } from '../entitlements/entitlements.service';
import { isFutureExpiry, PAST_EXPIRY_MESSAGE } from '../entitlements/entitlement-bounds';
import { isGrantable } from '../products/product-lookup.sql';
import { ErrorCode } from '../errors/error-code.enum';
import { isValidId } from '../ids/id';
import { ProductEntity } from '../products/product.entity';
import { ProductsService } from '../products/products.service';
import { ImportRowError, MAX_SHOWN_ERRORS } from './entitlement-import.entity';
import { ImportGrantRow, ImportRowErrorCode, isRowProblem, parseImportRow } from './import-row-parser';
import { toImportResponse } from './import.mapper';
import { ImportsRepository, RowOutcome } from './imports.repository';
import { TestClockTime } from '../test-clock-records/test-clock-time.service';

/** Rows per batch: each batch is one transaction. */
export const IMPORT_BATCH_SIZE = 500;

const referenceKey = (reference: { id?: string; storeId?: string }) => (reference.id !== undefined ? `id:${reference.id}` : `store:${reference.storeId}`);

/**
 * One batch of an import, in one transaction: claims up to IMPORT_BATCH_SIZE pending rows (SKIP
 * LOCKED), grants the good ones together through the entitlements' lifecycle (`grantMany`, source
 * import: each publishes entitlement.created, bundles and grant rules apply), records every row's
 * outcome and moves the import's counters. A crash rolls the whole batch back, so its rows are
 * claimed again and none is granted twice. Customers and products are looked up once per batch.
 */
@Injectable()
export class ImportBatchProcessor {
  constructor(
    private readonly imports: ImportsRepository,
    private readonly grantResolution: EntitlementGrantResolutionService,
    private readonly entitlements: EntitlementsService,
    private readonly customers: CustomerRecordsService,
    private readonly products: ProductsService,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly time: TestClockTime,
    private readonly metrics: Metrics,
  ) {}

  /** Processes one batch; false when no row was pending. */
  async processNextBatch(): Promise<boolean> {
    const processed = await this.unitOfWork.run(async (tx) => {
      const batch = await this.imports.claimBatchAcrossTenants(tx, IMPORT_BATCH_SIZE);
      if (!batch || batch.rows.length === 0) return 0;
      const outcomes = await this.grantRows(tx, batch.tenant, batch.rows, batch.testClockId);
      await this.imports.saveOutcomes(tx, batch.tenant, batch.importId, outcomes);
      await this.recordProgress(tx, batch.tenant, batch.importId, outcomes);
      return outcomes.length;
    });
    // Counted once committed: a batch rolled back and run again is counted once.
    this.metrics.importRowsProcessed(processed);
    return processed > 0;
  }

  private async grantRows(tx: Transaction, tenant: Tenant, rows: Array<{ row_number: number; data: unknown }>, testClockId: string | null): Promise<RowOutcome[]> {
    // The import's customers' now: its test clock's frozen time when it has one (DESIGN §14).
    const now = await this.time.nowFor(tx, tenant, testClockId);
    const outcomes: RowOutcome[] = [];
    const failed = (rowNumber: number, code: ImportRowErrorCode, message: string) =>
      outcomes.push({ rowNumber, status: 'failed', entitlementId: null, errorCode: code, errorMessage: message });
    const parsed: Array<{ rowNumber: number; row: ImportGrantRow }> = [];
    for (const { row_number: rowNumber, data } of rows) {
      const result = parseImportRow(data, now);
      if (isRowProblem(result)) failed(rowNumber, result.code, result.message);
      else parsed.push({ rowNumber, row: result });
    }

    const customers = await this.resolveCustomers(tx, tenant, parsed.map(({ row }) => row), testClockId);
    // A customer bound to another clock than the import's lives at that clock's time.
    const nowOf = await this.time.nowsFor(tx, tenant, [...customers.values()].map((customer) => customer.testClockId));
    const products = await this.resolveProducts(tx, tenant, parsed.map(({ row }) => row));
    const held = await this.entitlements.activePairs(
      tx,
      tenant,
      [...customers.values()].map((customer) => customer.id),
      [...products.values()].flatMap((product) => (product ? [product.id] : [])),
    );

    // Rows refused here are failed; the rest are granted together (one grantMany per batch). A
    // later row of a customer and product an earlier row grants is skipped: it holds it by then.
    const grants: Array<{ rowNumber: number; grant: ResolvedGrant }> = [];
    for (const { rowNumber, row } of parsed) {
      const customer = customers.get(referenceKey(row.customer));
      const product = products.get(referenceKey(row.product));
      if (customer === undefined) {
        failed(rowNumber, ErrorCode.CUSTOMER_NOT_FOUND, `No customer with id '${row.customer.id}'`);
      } else if (testClockId !== null && customer.testClockId !== testClockId) {
        failed(rowNumber, ErrorCode.TEST_CLOCK_MISMATCH, `Customer '${customer.id}' already exists and is not bound to the import's test clock '${testClockId}'`);
      } else if (row.expiresAt && !isFutureExpiry(row.expiresAt, nowOf(customer.testClockId))) {
        failed(rowNumber, ErrorCode.INVALID_PARAMETER, `${PAST_EXPIRY_MESSAGE} of the customer's test clock`);
      } else if (!product) {
        const named = row.product.id !== undefined ? `id '${row.product.id}'` : `store_product_id '${row.product.storeId}'`;
        failed(rowNumber, ErrorCode.PRODUCT_NOT_FOUND, `No product with ${named}`);
      } else if (!isGrantable(product)) {
        failed(rowNumber, ErrorCode.PRODUCT_ARCHIVED, `Product '${product.id}' is archived and cannot be granted`);
      } else if (held.has(`${customer.id}/${product.id}`)) {
        outcomes.push({ rowNumber, status: 'skipped', entitlementId: null, errorCode: null, errorMessage: null });
      } else {
        held.add(`${customer.id}/${product.id}`);
        grants.push({
          rowNumber,
          grant: {
            customer,
            product,
            source: 'import',
            expiresAt: row.expiresAt,
            usageLimit: row.usageLimit,
            storeOrderId: row.storeOrderId,
            metadata: row.metadata,
          },
        });
      }
    }
    const granted = await this.grantResolution.grantMany(tx, tenant, grants.map(({ grant }) => grant));
    grants.forEach(({ rowNumber }, index) =>
      outcomes.push({ rowNumber, status: 'granted', entitlementId: granted[index].id, errorCode: null, errorMessage: null }),
    );
    return outcomes.sort((left, right) => left.rowNumber - right.rowNumber);
  }

  /** Each row's customer (id and store id) by reference; store ids are created where new, unknown ids are left out. */
  private async resolveCustomers(tx: Transaction, tenant: Tenant, rows: ImportGrantRow[], testClockId: string | null): Promise<Map<string, ResolvedGrant['customer']>> {
    const resolved = new Map<string, ResolvedGrant['customer']>();
    const storeIds = rows.flatMap(({ customer }) => (customer.storeId !== undefined ? [customer.storeId] : []));
    for (const [storeId, customer] of await this.customers.findOrCreateManyByStoreIds(tx, tenant, storeIds, testClockId)) {
      resolved.set(`store:${storeId}`, { id: customer.id, storeCustomerId: customer.store_customer_id, testClockId: customer.test_clock_id });
    }
    const ids = [...new Set(rows.flatMap(({ customer }) => (customer.id !== undefined && isValidId('cus', customer.id) ? [customer.id] : [])))];
    for (const customer of await this.customers.findByIds(tx, tenant, ids)) {
      resolved.set(`id:${customer.id}`, { id: customer.id, storeCustomerId: customer.store_customer_id, testClockId: customer.test_clock_id });
    }
    return resolved;
  }

  /** Each distinct product reference of the batch, looked up once (null when the tenant has none). */
  private async resolveProducts(tx: Transaction, tenant: Tenant, rows: ImportGrantRow[]): Promise<Map<string, ProductEntity | null>> {
    const resolved = new Map<string, ProductEntity | null>();
    for (const { product } of rows) {
      const key = referenceKey(product);
      if (!resolved.has(key)) resolved.set(key, await this.products.findForGrant(tx, tenant, product));
    }
    return resolved;
  }

  /** Moves the counters under the import's row lock; the batch that processes the last row completes it. */
  private async recordProgress(tx: Transaction, tenant: Tenant, importId: string, outcomes: RowOutcome[]): Promise<void> {
    const entitlementImport = await this.imports.lockById(tx, tenant, importId);
    if (!entitlementImport) throw new Error(`Import ${importId} has rows but no record`);
    const count = (status: RowOutcome['status']) => outcomes.filter((outcome) => outcome.status === status).length;
    const errors: ImportRowError[] = [...entitlementImport.errors];
    for (const outcome of outcomes) {
      if (outcome.status !== 'failed' || errors.length >= MAX_SHOWN_ERRORS) continue;
      errors.push({ row: outcome.rowNumber, code: outcome.errorCode ?? ErrorCode.INVALID_PARAMETER, message: outcome.errorMessage ?? '' });
    }
    const processed = entitlementImport.processed_rows + outcomes.length;
    const completed = processed >= entitlementImport.total_rows;
    const saved = await this.imports.saveProgress(tx, tenant, importId, {
      status: completed ? 'completed' : 'running',
      processed_rows: processed,
      granted: entitlementImport.granted + count('granted'),
      skipped: entitlementImport.skipped + count('skipped'),
      failed: entitlementImport.failed + count('failed'),
      errors,
      completed_at: completed ? this.clock.now() : null,
    });
    if (completed) await tx.publish('import.completed', tenant, { ...toImportResponse(saved) });
  }
}
