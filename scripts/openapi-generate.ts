import 'reflect-metadata';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createApp } from '../src/app-setup';
import { buildOpenApiDocument } from '../src/swagger/openapi';

/**
 * Writes the OpenAPI document to openapi.json at the repository root (`npm run openapi:generate`).
 * With --check (CI) it writes nothing and fails when the committed file differs from the code.
 */
const OUTPUT = path.join(__dirname, '..', 'openapi.json');

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const dataDirectory = mkdtempSync(path.join(tmpdir(), 'eh-openapi-'));
  // A throwaway embedded database: the document doesn't depend on data, only on the code.
  const app = await createApp({ DATABASE_URL: '', DATA_DIR: dataDirectory, SKIP_DEMO_SEED: 'true', LOG_LEVEL: 'silent', ADMIN_TOKEN: '' });
  try {
    await app.init();
    const document = `${JSON.stringify(buildOpenApiDocument(app), null, 2)}\n`;
    if (check) {
      let committed = '';
      try {
        committed = readFileSync(OUTPUT, 'utf8');
      } catch {
        committed = '';
      }
      if (committed !== document) {
        process.stderr.write('openapi.json is stale: run `npm run openapi:generate` and commit the result.\n');
        process.exitCode = 1;
      } else {
        process.stdout.write('openapi.json matches the code.\n');
      }
      return;
    }
    writeFileSync(OUTPUT, document);
    process.stdout.write(`Wrote ${path.relative(process.cwd(), OUTPUT)}\n`);
  } finally {
    await app.close();
    rmSync(dataDirectory, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
