import { EmbeddedDatabase } from '../src/database/embedded-database';
import { ENTITIES } from '../src/app-entities';
import { buildDataSourceOptions } from '../src/database/data-source-options';
import { runMigrations } from '../src/database/run-migrations';
import { DataSource } from 'typeorm';
import * as path from 'node:path';

/**
 * `npm run migration:run`: applies pending migrations to DATABASE_MIGRATION_URL (a direct connection
 * when DATABASE_URL is a transaction pooler), else DATABASE_URL, else the embedded database under DATA_DIR.
 */
async function main(): Promise<void> {
  const url = process.env.DATABASE_MIGRATION_URL || process.env.DATABASE_URL;
  const embedded = url ? null : await EmbeddedDatabase.start(path.join(path.resolve(process.env.DATA_DIR || './data'), 'pg'));
  const dataSource = await new DataSource(buildDataSourceOptions(url ?? embedded!.url, embedded !== null, ENTITIES)).initialize();
  try {
    const before = await dataSource.showMigrations();
    await runMigrations(dataSource);
    process.stdout.write(before ? 'Pending migrations applied.\n' : 'No pending migrations.\n');
  } finally {
    await dataSource.destroy();
    await embedded?.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
