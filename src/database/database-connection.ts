import * as path from 'node:path';
import { AppConfig } from '../config/app-config';
import { EmbeddedDatabase } from './embedded-database';

/** Where the database is (the configured PostgreSQL, or the embedded one started here) and how to talk to it. */
export class DatabaseConnection {
  constructor(
    readonly url: string,
    readonly embedded: EmbeddedDatabase | null,
    /** A streaming replica for reads that may lag; null → those read the primary (DESIGN §15). */
    readonly readUrl: string | null = null,
    /** A direct connection for migrations (DATABASE_URL may be a transaction pooler); null → `url`. */
    readonly migrationUrl: string | null = null,
    /** false: statements go unnamed, so no server connection must keep them (a transaction pooler). */
    readonly preparedStatements = true,
  ) {}

  static async open(config: AppConfig): Promise<DatabaseConnection> {
    if (config.databaseUrl) {
      return new DatabaseConnection(config.databaseUrl, null, config.databaseReadUrl ?? null, config.databaseMigrationUrl ?? null, config.databasePreparedStatements);
    }
    const embedded = await EmbeddedDatabase.start(path.join(config.dataDirectory, 'pg'));
    return new DatabaseConnection(embedded.url, embedded, null, null, config.databasePreparedStatements);
  }
}
