/**
 * The import benchmark (DESIGN §10: 100,000 rows in ≤ 60 s on PostgreSQL): posts one CSV of new
 * customers × one product to the running server and polls the import until it completes. The
 * time runs from the POST (rows stored) to the last batch's commit, so it is what a merchant waits.
 */
export interface ImportBenchmarkOptions {
  baseUrl: string;
  apiKey: string;
  storeProductId: string;
  rows: number;
  /** Called at every poll while the import runs (the memory benchmark samples the server's RSS). */
  onPoll?: () => void;
}

export interface ImportBenchmarkResult {
  rows: number;
  /** The POST: reading, checking and storing every row. */
  acceptSeconds: number;
  /** From the POST until the import completed. */
  totalSeconds: number;
  rowsPerSecond: number;
  granted: number;
  skipped: number;
  failed: number;
}

interface ImportState {
  id: string;
  status: string;
  processed_rows: number;
  granted: number;
  skipped: number;
  failed: number;
}

async function call(baseUrl: string, apiKey: string, method: string, route: string, body?: string): Promise<ImportState> {
  const response = await fetch(`${baseUrl}${route}`, {
    method,
    headers: { Authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { 'Content-Type': 'text/csv' }) },
    body,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route} → ${response.status} ${text}`);
  return (JSON.parse(text) as { data: ImportState }).data;
}

export async function measureImport(options: ImportBenchmarkOptions): Promise<ImportBenchmarkResult> {
  const run = Date.now().toString(36);
  const lines = ['store_customer_id,store_product_id'];
  for (let row = 1; row <= options.rows; row += 1) lines.push(`bench_import_${run}_${row},${options.storeProductId}`);
  const started = Date.now();
  const created = await call(options.baseUrl, options.apiKey, 'POST', '/v1/entitlement-imports', `${lines.join('\n')}\n`);
  const acceptSeconds = (Date.now() - started) / 1000;
  let state = created;
  while (state.status !== 'completed' && state.status !== 'failed') {
    options.onPoll?.();
    await new Promise((resolve) => setTimeout(resolve, 200));
    state = await call(options.baseUrl, options.apiKey, 'GET', `/v1/entitlement-imports/${created.id}`);
  }
  const totalSeconds = (Date.now() - started) / 1000;
  return {
    rows: options.rows,
    acceptSeconds,
    totalSeconds,
    rowsPerSecond: Math.round(options.rows / totalSeconds),
    granted: state.granted,
    skipped: state.skipped,
    failed: state.failed,
  };
}
