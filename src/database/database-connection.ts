import * as path from 'node:path';
import { AppConfig } from '../config/app-config';
import { EmbeddedDatabase } from './embedded-database';

/** Where the database is: the configured PostgreSQL, or the embedded one started here. */
export class DatabaseConnection {
  constructor(
    readonly url: string,
    readonly embedded: EmbeddedDatabase | null,
  ) {}

  static async open(config: AppConfig): Promise<DatabaseConnection> {
    if (config.databaseUrl) return new DatabaseConnection(config.databaseUrl, null);
    const embedded = await EmbeddedDatabase.start(path.join(config.dataDirectory, 'pg'));
    return new DatabaseConnection(embedded.url, embedded);
  }
}
