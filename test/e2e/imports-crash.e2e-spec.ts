import { DataSource } from 'typeorm';
import { ImportWorker } from '../../src/imports/import-worker';
import { AppProcess } from '../support/app-process';
import { insertProduct } from '../support/entitlement-fixtures';
import { eventually } from '../support/eventually';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';
import { describeNeeding } from '../support/requirements';

/**
 * DESIGN §10, "a crash resumes from the last committed batch and no row grants twice": an import
 * of 10,000 rows runs in a child process that is SIGKILLed once some batches have committed; a new
 * process on the same database resumes it, and the counts come out exact. Needs PostgreSQL: the
 * embedded database belongs to one process.
 */
const databaseUrl = process.env.EH_TEST_DATABASE_URL;

const ROWS = 10_000;

interface Progress {
  status: string;
  processed_rows: number;
  granted: number;
  skipped: number;
  failed: number;
}

describeNeeding(['postgresql'], 'imports: a worker SIGKILLed mid-import resumes with exact counts (PostgreSQL)', () => {
  let setupApp: TestApp;
  let tenant: TestTenant;
  const run = `imp_crash_${Date.now().toString(36)}`;

  beforeAll(async () => {
    if (!databaseUrl) throw new Error('TEST_DATABASE_URL is required under CI for the crash test');
    setupApp = await createTestApp();
    // Only the child processes work on imports here: the one killed and the one that resumes.
    await setupApp.app.get(ImportWorker).stop();
    tenant = await setupApp.createTenant('pro');
  });
  afterAll(() => setupApp?.close());

  const progress = async (importId: string): Promise<Progress> => {
    const rows: Progress[] = await setupApp.app
      .get(DataSource)
      .query(`SELECT status, processed_rows, granted, skipped, failed FROM entitlement_imports WHERE id = $1`, [importId]);
    return rows[0];
  };
  const rowCounts = async (importId: string): Promise<Record<string, number>> => {
    const rows: Array<{ status: string; count: number }> = await setupApp.app
      .get(DataSource)
      .query(`SELECT status, count(*)::int AS count FROM import_rows WHERE import_id = $1 GROUP BY status`, [importId]);
    return Object.fromEntries(rows.map((row) => [row.status, row.count]));
  };

  it('grants every good row exactly once across the crash', async () => {
    const product = await insertProduct(setupApp, tenant.merchantId, 'test');
    // Every 500th row fails (usage_limit 0); every 1000th repeats the previous row's customer (skipped).
    const lines = ['store_customer_id,store_product_id,usage_limit'];
    for (let row = 1; row <= ROWS; row += 1) {
      const customer = row % 1000 === 0 ? `${run}_${row - 1}` : `${run}_${row}`;
      lines.push(`${customer},${product.store_product_id},${row % 500 === 7 ? '0' : ''}`);
    }
    const failedRows = Array.from({ length: ROWS }, (_, index) => index + 1).filter((row) => row % 500 === 7).length;
    const skippedRows = ROWS / 1000;

    let server: AppProcess | null = await AppProcess.start(databaseUrl as string);
    let importId: string;
    try {
      const response = await fetch(`${server.baseUrl}/v1/entitlement-imports`, {
        method: 'POST',
        headers: { ...bearer(tenant.testKey), 'content-type': 'text/csv' },
        body: lines.join('\n'),
      });
      expect(response.status).toBe(202);
      importId = ((await response.json()) as { data: { id: string } }).data.id;
      await eventually(async () => (await progress(importId)).processed_rows > 0, 120_000, 10);
      await server.kill();
      server = null;
    } finally {
      await server?.kill();
    }

    // Killed mid-way: the committed batches show, and each row's outcome committed with its counters.
    const atCrash = await progress(importId);
    expect(atCrash.status).toBe('running');
    expect(atCrash.processed_rows).toBeGreaterThan(0);
    expect(atCrash.processed_rows).toBeLessThan(ROWS);
    const rowsAtCrash = await rowCounts(importId);
    expect(rowsAtCrash.pending).toBe(ROWS - atCrash.processed_rows);
    expect(rowsAtCrash.granted ?? 0).toBe(atCrash.granted);

    server = await AppProcess.start(databaseUrl as string);
    try {
      // The new process's worker finds the pending rows on its own (poll), with no request.
      await eventually(async () => (await progress(importId)).status === 'completed', 240_000, 50);
    } finally {
      await server.stop();
    }

    expect(await progress(importId)).toEqual({ status: 'completed', processed_rows: ROWS, granted: ROWS - failedRows - skippedRows, skipped: skippedRows, failed: failedRows });
    const dataSource = setupApp.app.get(DataSource);
    const [entitlements] = (await dataSource.query(
      `SELECT count(*)::int AS total, count(DISTINCT customer_id)::int AS customers FROM entitlements WHERE merchant_id = $1 AND mode = 'test' AND source = 'import'`,
      [tenant.merchantId],
    )) as Array<{ total: number; customers: number }>;
    expect(entitlements).toEqual({ total: ROWS - failedRows - skippedRows, customers: ROWS - failedRows - skippedRows });
    const [events] = (await dataSource.query(
      `SELECT count(*) FILTER (WHERE type = 'entitlement.created')::int AS created, count(*) FILTER (WHERE type = 'import.completed')::int AS completed
       FROM events WHERE merchant_id = $1 AND mode = 'test'`,
      [tenant.merchantId],
    )) as Array<{ created: number; completed: number }>;
    expect(events).toEqual({ created: ROWS - failedRows - skippedRows, completed: 1 });
    const report = await setupApp.http.get(`/v1/entitlement-imports/${importId}`).set(bearer(tenant.testKey)).expect(200);
    expect(report.body.data.errors).toHaveLength(failedRows);
    // Two processes booting and 10,000 grants: minutes on a busy machine, not the suite's 60 s.
  }, 300_000);
});
