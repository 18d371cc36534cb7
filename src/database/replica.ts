import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { buildDataSourceOptions, EntityList, PoolSettings } from './data-source-options';
import type { DatabaseConnection } from './database-connection';
import type { Reader } from './transaction';

/**
 * The streaming replica of DATABASE_READ_URL (DESIGN §15): a pool of its own, for reads that may
 * lag the primary by the replication delay (lists, the event log, usage, the dashboard's overview).
 * Without one those reads go to the primary's pool. It never runs migrations (the primary's reach
 * it by replication) and installs nothing (a standby refuses writes).
 */
export class Replica {
  private constructor(
    /** The replica's pool, or null: no replica configured. */
    private readonly dataSource: DataSource | null,
  ) {}

  /** No replica: every read on the primary. */
  static none(): Replica {
    return new Replica(null);
  }

  static async open(connection: DatabaseConnection, entities: EntityList, settings: PoolSettings): Promise<Replica> {
    if (connection.readUrl === null) return Replica.none();
    const options = buildDataSourceOptions(connection.readUrl, false, entities, settings);
    const dataSource = await new DataSource({ ...options, installExtensions: false }).initialize();
    return new Replica(dataSource);
  }

  /** The replica's Reader, or `primary` when there is none. */
  readerOr(primary: Reader): Reader {
    return this.dataSource ? { manager: this.dataSource.manager } : primary;
  }

  /** The replica's pg Pool (metrics, traces), or null. */
  get pool(): Pool | null {
    return this.dataSource ? ((this.dataSource.driver as PostgresDriver).master as Pool) : null;
  }

  async close(): Promise<void> {
    if (this.dataSource?.isInitialized) await this.dataSource.destroy();
  }
}
