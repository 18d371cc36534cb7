import { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { DatabaseSettings } from '../config/app-config';
import { buildPoolConfig, PoolSettings } from './data-source-options';
import type { DatabaseConnection } from './database-connection';

/**
 * Connections of their own for the access check, the hot path: write transactions that wait on a
 * row lock (one merchant's download burst behind its bandwidth row) hold the main pool's
 * connections, and a check queued behind them waited seconds. The check is one short statement
 * that takes no lock, so a few connections serve it. The embedded database is one session: there
 * the check shares the main pool's only connection.
 */
export class ReadPool {
  private constructor(
    readonly pool: Pool,
    /** Whether the check has connections of its own (a pool of its own to watch: pool-observation.ts). */
    readonly owned: boolean,
    /** Whether the check may name its statement (DATABASE_PREPARED_STATEMENTS; a transaction pooler may not keep it). */
    readonly namedStatements: boolean,
  ) {}

  /** The check's statement name, or none when statements must go unnamed. */
  statementName(name: string): string | undefined {
    return this.namedStatements ? name : undefined;
  }

  static create(dataSource: DataSource, connection: DatabaseConnection, settings: DatabaseSettings & Pick<PoolSettings, 'statements'>): ReadPool {
    if (connection.embedded !== null || settings.checkPoolSize === 0) {
      return new ReadPool((dataSource.driver as PostgresDriver).master as Pool, false, connection.preparedStatements);
    }
    const pool = new Pool(buildPoolConfig(connection.url, false, settings.checkPoolSize, settings));
    // pg-pool re-emits an idle client's error here; without a listener it would end the process.
    pool.on('error', () => undefined);
    return new ReadPool(pool, true, connection.preparedStatements);
  }

  async close(): Promise<void> {
    if (this.owned) await this.pool.end();
  }
}
