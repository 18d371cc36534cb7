import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { mkdirSync } from 'node:fs';
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
  ) {}

  /** `directory` null keeps the database in memory (tests of the boot path). */
  static async start(directory: string | null): Promise<EmbeddedDatabase> {
    let dataLocation = 'memory://';
    if (directory !== null) {
      mkdirSync(directory, { recursive: true });
      dataLocation = path.resolve(directory);
    }
    const database = await PGlite.create(dataLocation);
    const server = new PGLiteSocketServer({ db: database, host: '127.0.0.1', port: 0 });
    await server.start();
    const port = Number(server.getServerConn().split(':').pop());
    return new EmbeddedDatabase(database, server, `postgres://postgres@127.0.0.1:${port}/postgres?sslmode=disable`);
  }

  async stop(): Promise<void> {
    await this.server.stop();
    await this.database.close();
  }
}
