import { inTenant, systemAudit } from '../auth/request-audit';
import { INestApplicationContext } from '@nestjs/common';
import { SingleBar } from 'cli-progress';
import { readFileSync } from 'node:fs';
import { MerchantsService } from '../auth/merchants.service';
import type { ApiMode } from '../database/tenant';
import { operationFor } from '../database/operation';
import { ImportResponseDto } from '../imports/dto/import-response.dto';
import { ImportsService } from '../imports/imports.service';
import { CsvBody } from '../validation/request-body';

const PROGRESS_INTERVAL_MILLISECONDS = 250;

export interface ImportCommandOptions {
  merchantId: string;
  mode: ApiMode;
  file: string;
  /** Where the progress bar goes; drawn only on a terminal. */
  progress: NodeJS.WriteStream;
}

/** A .json file holds `{"rows": [...]}`; anything else is read as CSV with a header row. */
function bodyOf(file: string): unknown {
  const text = readFileSync(file, 'utf8');
  return file.toLowerCase().endsWith('.json') ? (JSON.parse(text) as unknown) : new CsvBody(text);
}

/**
 * `import --merchant --mode --file`: creates the import as the API would, lets this process's
 * import worker run it (a server on the same PostgreSQL database shares the batches), shows a
 * progress bar on a terminal, and returns the final report.
 */
export async function runImportCommand(context: INestApplicationContext, options: ImportCommandOptions): Promise<ImportResponseDto> {
  await context.get(MerchantsService).require(options.merchantId);
  const imports = context.get(ImportsService);
  const tenant = { merchantId: options.merchantId, mode: options.mode };
  const audit = inTenant(systemAudit('cli.import'), tenant.merchantId, tenant.mode);
  const created = await imports.create({ ...operationFor(tenant), audit }, bodyOf(options.file));
  const bar = options.progress.isTTY ? new SingleBar({ stream: options.progress, format: 'import [{bar}] {percentage}% | {value}/{total} rows | granted {granted} skipped {skipped} failed {failed}' }) : null;
  bar?.start(created.total_rows, 0, { granted: 0, skipped: 0, failed: 0 });
  let report = created;
  while (report.status !== 'completed' && report.status !== 'failed') {
    await new Promise((resolve) => setTimeout(resolve, PROGRESS_INTERVAL_MILLISECONDS));
    report = await imports.get(tenant, created.id);
    bar?.update(report.processed_rows, { granted: report.granted, skipped: report.skipped, failed: report.failed });
  }
  bar?.stop();
  return report;
}
