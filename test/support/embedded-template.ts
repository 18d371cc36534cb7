import { createHash } from 'node:crypto';
import { accessSync, constants, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const REPOSITORY_ROOT = path.resolve(__dirname, '../..');
const CACHE_DIRECTORY = path.join(REPOSITORY_ROOT, 'node_modules', '.cache', 'eh-test-embedded-database');

/** Set by the global setup: the `pg` directory of a migrated embedded database that apps start from. */
const TEMPLATE_VARIABLE = 'EH_TEST_EMBEDDED_TEMPLATE';

/**
 * Creating an embedded database costs PGlite's initdb (10 to 20 s of CPU on this machine) plus the
 * migrations; opening an existing one takes about a second. So a run migrates one database once
 * (cached between runs under node_modules/.cache, keyed by the migrations' code and PGlite's
 * version), and every test app or child process starts on a copy of its files. The app still runs
 * its migrations at start: it finds none pending. Suites that test the first start itself spawn
 * the service on an empty directory and never see the copy.
 */
export async function prepareEmbeddedTemplate(): Promise<string> {
  const { MIGRATIONS } = await import('../../src/database/migrations');
  const pgliteVersion = (JSON.parse(readFileSync(path.join(REPOSITORY_ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8')) as { version: string }).version;
  const fingerprint = createHash('sha256')
    .update(pgliteVersion)
    .update((MIGRATIONS as unknown[]).map((migration) => String(migration)).join('\n'))
    .digest('hex')
    .slice(0, 16);
  const template = path.join(CACHE_DIRECTORY, fingerprint, 'pg');
  if (!existsSync(template)) await createTemplate(template);
  process.env[TEMPLATE_VARIABLE] = template;
  return template;
}

async function createTemplate(template: string): Promise<void> {
  const { EmbeddedDatabase } = await import('../../src/database/embedded-database');
  const { buildDataSourceOptions } = await import('../../src/database/data-source-options');
  const { runMigrations } = await import('../../src/database/run-migrations');
  const { DataSource } = await import('typeorm');
  const { ENTITIES } = await import('../../src/app-entities');
  mkdirSync(CACHE_DIRECTORY, { recursive: true });
  // Built beside the cache and renamed into place whole, so a run that stops half-way leaves no template.
  const building = mkdtempSync(path.join(CACHE_DIRECTORY, 'building-'));
  try {
    const embedded = await EmbeddedDatabase.start(path.join(building, 'pg'));
    try {
      // With the app's entities, as the app runs them: TypeORM then creates typeorm_metadata, which a
      // migration adding a generated column writes to (with no entities that migration fails).
      const dataSource = await new DataSource(buildDataSourceOptions(embedded.url, true, ENTITIES)).initialize();
      await runMigrations(dataSource);
      await dataSource.destroy();
    } finally {
      await embedded.stop();
    }
    for (const stale of readdirSync(CACHE_DIRECTORY)) {
      if (!stale.startsWith('building-')) rmSync(path.join(CACHE_DIRECTORY, stale), { recursive: true, force: true });
    }
    mkdirSync(path.dirname(template), { recursive: true });
    try {
      renameSync(path.join(building, 'pg'), template);
    } catch (error) {
      // A concurrent run put the same template in place first: keep theirs.
      if (!existsSync(template)) throw error;
    }
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
}

/** Puts a copy of the migrated template at `dataDirectory/pg`, where an app's embedded database lives. */
export function seedEmbeddedDatabase(dataDirectory: string): void {
  const template = process.env[TEMPLATE_VARIABLE];
  const target = path.join(dataDirectory, 'pg');
  // No template (a run without the global setup) or a database already there: the app opens what it finds.
  if (!template || !existsSync(template) || existsSync(target)) return;
  cpSync(template, target, { recursive: true });
}

/**
 * Where test apps keep their data directories: RAM (/dev/shm) when the machine has it, so copying
 * the template, the database's writes and their removal cost no disk I/O; the system's temporary
 * directory elsewhere.
 */
export function testDataDirectory(prefix: string): string {
  return mkdtempSync(path.join(memoryBackedDirectory() ?? tmpdir(), prefix));
}

function memoryBackedDirectory(): string | null {
  try {
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return null;
  }
}
