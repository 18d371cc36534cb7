import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { ENTITIES } from '../src/app-entities';
import { buildDataSourceOptions } from '../src/database/data-source-options';
import { EmbeddedDatabase } from '../src/database/embedded-database';

/**
 * A data source for the migration scripts: MIGRATION_DATABASE_URL (or DATABASE_URL) when set,
 * else a throwaway in-memory embedded database, so generation and the drift check need no server.
 */
export async function openScriptDataSource(): Promise<{ dataSource: DataSource; close: () => Promise<void> }> {
  const url = process.env.MIGRATION_DATABASE_URL || process.env.DATABASE_URL;
  const embedded = url ? null : await EmbeddedDatabase.start(null);
  const dataSource = await new DataSource(buildDataSourceOptions(url ?? embedded!.url, embedded !== null, ENTITIES)).initialize();
  return {
    dataSource,
    close: async () => {
      await dataSource.destroy();
      await embedded?.stop();
    },
  };
}
