import 'reflect-metadata';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createApp } from '../src/app-setup';
import { buildDashboardOpenApiDocument, buildOpenApiDocument } from '../src/swagger/openapi';

/**
 * Writes the OpenAPI documents at the repository root (`npm run openapi:generate`): openapi.json
 * (the public API) and openapi.dashboard.json (the dashboard app's own routes). With --check (CI)
 * it writes nothing and fails when a committed file differs from the code.
 */
const ROOT = path.join(__dirname, '..');

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const dataDirectory = mkdtempSync(path.join(tmpdir(), 'eh-openapi-'));
  // A throwaway embedded database: the documents don't depend on data, only on the code.
  const app = await createApp({ DATABASE_URL: '', DATA_DIR: dataDirectory, SKIP_DEMO_SEED: 'true', LOG_LEVEL: 'silent', ADMIN_TOKEN: '' });
  try {
    await app.init();
    const documents = {
      'openapi.json': buildOpenApiDocument(app),
      'openapi.dashboard.json': buildDashboardOpenApiDocument(app),
    };
    for (const [name, built] of Object.entries(documents)) {
      const output = path.join(ROOT, name);
      const document = `${JSON.stringify(built, null, 2)}\n`;
      if (!check) {
        writeFileSync(output, document);
        process.stdout.write(`Wrote ${path.relative(process.cwd(), output)}\n`);
        continue;
      }
      let committed = '';
      try {
        committed = readFileSync(output, 'utf8');
      } catch {
        committed = '';
      }
      if (committed !== document) {
        process.stderr.write(`${name} is stale: run \`npm run openapi:generate\` and commit the result.\n`);
        process.exitCode = 1;
      } else {
        process.stdout.write(`${name} matches the code.\n`);
      }
    }
  } finally {
    await app.close();
    rmSync(dataDirectory, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
