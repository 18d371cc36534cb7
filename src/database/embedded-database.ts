import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * The embedded PostgreSQL: PGlite behind its socket server on loopback, reached by the ordinary
 * `pg` driver with a pool of one connection. PGlite is a single session; one connection means
 * transactions queue instead of interleaving on it (DESIGN §2: a driver that shares the session
 * between concurrent transactions loses updates).
 */
export class EmbeddedDatabase {
  private constructor(
    private readonly database: PGlite,
    private readonly server: PGLiteSocketServer,
    readonly url: string,
    private readonly lockFile: string | null,
  ) {}

  /** `directory` null keeps the database in memory (tests of the boot path). */
  static async start(directory: string | null): Promise<EmbeddedDatabase> {
    let dataLocation = 'memory://';
    let lockFile: string | null = null;
    if (directory !== null) {
      mkdirSync(directory, { recursive: true });
      dataLocation = path.resolve(directory);
      lockFile = acquireLock(`${dataLocation}.lock`);
    }
    const database = await PGlite.create(dataLocation);
    const server = new PGLiteSocketServer({ db: database, host: '127.0.0.1', port: 0 });
    await server.start();
    const port = Number(server.getServerConn().split(':').pop());
    return new EmbeddedDatabase(database, server, `postgres://postgres@127.0.0.1:${port}/postgres?sslmode=disable`, lockFile);
  }

  async stop(): Promise<void> {
    await this.server.stop();
    await this.database.close();
    if (this.lockFile) rmSync(this.lockFile, { force: true });
  }
}

/** Another live process holds the embedded database's files (the CLI reports it as `DATABASE_IN_USE`). */
export class DatabaseInUseError extends Error {
  override readonly name = 'DatabaseInUseError';
  readonly code = 'DATABASE_IN_USE';
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * PGlite's files must be opened by one process at a time; a second one (say the CLI while the
 * server runs) would corrupt them. A lock file with the owner's pid refuses that, and a stale
 * lock left by a crash is taken over.
 */
function acquireLock(lockFile: string): string {
  try {
    writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
    return lockFile;
  } catch {
    const owner = Number(readFileSync(lockFile, 'utf8'));
    if (Number.isInteger(owner) && owner !== process.pid && isRunning(owner)) {
      throw new DatabaseInUseError(
        `The embedded database ${lockFile.replace(/\.lock$/, '')} is in use by process ${owner}. ` +
          'Stop that process, or use the admin API while it runs.',
      );
    }
    writeFileSync(lockFile, String(process.pid));
    return lockFile;
  }
}
