import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';

/** Debian's chromium, which the browser suites drive through playwright-core (`.ci/run` installs it). */
export const CHROMIUM_EXECUTABLE = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * What a suite may need from the machine, beyond what `npm test` prepares itself (builds, the
 * embedded database). Only these make a suite skip: locally it says so in one line on stderr; under
 * CI (CI=true) a missing one fails the run instead, since CI must run everything.
 */
export type Requirement = 'postgresql' | 'chromium' | 'redis' | 'nginx' | 'pgbouncer' | 'postgresql-binaries';

/** Debian's nginx, which the several-instances suite runs in front of its instances (`.ci/run` installs it). */
export const NGINX_EXECUTABLE = ['/usr/sbin/nginx', 'nginx'].find((candidate) => spawnSync(candidate, ['-v']).status === 0) ?? null;

/** Debian's PgBouncer, which the several-instances suite puts between its instances and PostgreSQL (`.ci/run` installs it). */
export const PGBOUNCER_EXECUTABLE = ['/usr/sbin/pgbouncer', 'pgbouncer'].find((candidate) => spawnSync(candidate, ['--version']).status === 0) ?? null;

/** PostgreSQL's server binaries (initdb, pg_ctl, pg_basebackup), for the suite that builds a primary and its replica. */
export const POSTGRESQL_BINARIES =
  [process.env.POSTGRESQL_BIN, '/usr/lib/postgresql/15/bin'].find((directory) => directory && existsSync(path.join(directory, 'pg_basebackup'))) ?? null;

const REQUIREMENTS: Record<Requirement, { available: () => boolean; lacking: string }> = {
  postgresql: {
    available: () => Boolean(process.env.EH_TEST_DATABASE_URL),
    lacking: 'a PostgreSQL server (set TEST_DATABASE_URL=postgres://…; CI runs it)',
  },
  chromium: {
    available: () => existsSync(CHROMIUM_EXECUTABLE),
    lacking: `chromium at ${CHROMIUM_EXECUTABLE} (apt-get install chromium, or set CHROMIUM_PATH)`,
  },
  nginx: {
    available: () => NGINX_EXECUTABLE !== null,
    lacking: 'nginx (apt-get install nginx)',
  },
  pgbouncer: {
    available: () => PGBOUNCER_EXECUTABLE !== null,
    lacking: 'pgbouncer (apt-get install pgbouncer)',
  },
  'postgresql-binaries': {
    available: () => POSTGRESQL_BINARIES !== null,
    lacking: "PostgreSQL's server binaries in /usr/lib/postgresql/15/bin (apt-get install postgresql-15, or set POSTGRESQL_BIN)",
  },
  redis: {
    // The global setup probes it once per run (REDIS_TEST_URL, else redis://127.0.0.1:6379).
    available: () => Boolean(process.env.EH_TEST_REDIS_URL),
    lacking: 'a Redis server (set REDIS_TEST_URL=redis://…, or run one on 127.0.0.1:6379)',
  },
};

/** The Redis URL the global setup found answering, for suites that declared `redis`. */
export function testRedisUrl(): string {
  const url = process.env.EH_TEST_REDIS_URL;
  if (!url) throw new Error('No Redis: declare the suite with describeNeeding(["redis"], …)');
  return url;
}

function missing(requirements: Requirement[]): Requirement[] {
  return requirements.filter((requirement) => !REQUIREMENTS[requirement].available());
}

function reportMissing(requirements: Requirement[], what: string): void {
  const lacking = requirements.map((requirement) => REQUIREMENTS[requirement].lacking).join(' and ');
  const file = path.basename(expect.getState().testPath ?? 'this suite');
  if (process.env.CI === 'true') throw new Error(`${file}: "${what}" needs ${lacking}, and CI runs every suite`);
  process.stderr.write(`SKIPPED ${file}: "${what}" needs ${lacking}\n`);
}

/** `describe`, or `describe.skip` with one line saying what the machine lacks. */
export function describeNeeding(requirements: Requirement[], name: string, body: () => void): void {
  const absent = missing(requirements);
  if (absent.length === 0) return describe(name, body);
  reportMissing(absent, name);
  describe.skip(name, body);
}

/** `it`, or `it.skip` with one line saying what the machine lacks. */
export function itNeeding(requirements: Requirement[], name: string, body: () => Promise<void>, timeout?: number): void {
  const absent = missing(requirements);
  if (absent.length === 0) return it(name, body, timeout);
  reportMissing(absent, name);
  it.skip(name, body, timeout);
}
