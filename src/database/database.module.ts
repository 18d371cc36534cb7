import { DynamicModule, Global, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ClockModule } from '../clock/clock.module';
import { AppConfig } from '../config/app-config';
import { StatementObserver } from '../observability/statement-observer';
import { buildDataSourceOptions, EntityList } from './data-source-options';
import { DatabaseConnection } from './database-connection';
import { PoolObservation } from './pool-observation';
import { PartitionMaintenance } from './partition-maintenance';
import { Pruner } from './pruner';
import { ReadPool } from './read-pool';
import { Replica } from './replica';
import { runMigrations, runMigrationsAt } from './run-migrations';
import { TenantTransactionLimiter } from './tenant-transaction-limiter';
import { UnitOfWork } from './unit-of-work';
import { FastPaths } from './fast-paths';

@Module({
  providers: [
    { provide: DatabaseConnection, inject: [AppConfig], useFactory: (config: AppConfig) => DatabaseConnection.open(config) },
  ],
  exports: [DatabaseConnection],
})
class DatabaseConnectionModule {}

/** Closes the pools before the embedded server under them, whatever order Nest runs hooks in. */
@Injectable()
class DatabaseShutdown implements OnApplicationShutdown {
  constructor(
    private readonly dataSource: DataSource,
    private readonly connection: DatabaseConnection,
    private readonly readPool: ReadPool,
    private readonly replica: Replica,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.readPool.close();
    await this.replica.close();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await this.connection.embedded?.stop();
  }
}

export interface DatabaseModuleOptions {
  /**
   * Further attempts at the first connection, 3 s apart, when it fails (default: @nestjs/typeorm's
   * 9, for a server started before its database). The CLI gives 0: a person waits for it.
   */
  startupRetries?: number;
}

/** The database, its pools and the unit of work, for the entities the application lists (app-entities.ts). */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(entities: EntityList, options: DatabaseModuleOptions = {}): DynamicModule {
    /** DATABASE_MIGRATION_URL, handed from the options' factory to the DataSource's (which gets only the options). */
    let migrationUrl: string | null = null;
    return {
      module: DatabaseModule,
      imports: [
        ClockModule,
        DatabaseConnectionModule,
        TypeOrmModule.forRootAsync({
          imports: [DatabaseConnectionModule],
          inject: [DatabaseConnection, AppConfig, StatementObserver],
          useFactory: (connection: DatabaseConnection, config: AppConfig, statements: StatementObserver) => {
            migrationUrl = connection.migrationUrl;
            return {
              ...buildDataSourceOptions(connection.url, connection.embedded !== null, entities, { ...config.database, statements }),
              ...(options.startupRetries !== undefined ? { retryAttempts: options.startupRetries } : {}),
            };
          },
          dataSourceFactory: async (options) => {
            if (!options) throw new Error('Database options are missing');
            const dataSource = await new DataSource(options).initialize();
            await (migrationUrl ? runMigrationsAt(migrationUrl, entities) : runMigrations(dataSource));
            return dataSource;
          },
        }),
      ],
      providers: [
        UnitOfWork,
        FastPaths,
        Pruner,
        PartitionMaintenance,
        DatabaseShutdown,
        PoolObservation,
        {
          provide: ReadPool,
          inject: [DataSource, DatabaseConnection, AppConfig, StatementObserver],
          useFactory: (dataSource: DataSource, connection: DatabaseConnection, config: AppConfig, statements: StatementObserver) =>
            ReadPool.create(dataSource, connection, { ...config.database, statements }),
        },
        {
          provide: Replica,
          inject: [DatabaseConnection, AppConfig, StatementObserver],
          useFactory: (connection: DatabaseConnection, config: AppConfig, statements: StatementObserver) =>
            Replica.open(connection, entities, { ...config.database, statements }),
        },
        {
          provide: TenantTransactionLimiter,
          inject: [AppConfig],
          useFactory: ({ database }: AppConfig) =>
            new TenantTransactionLimiter({
              concurrency: database.tenantTransactions,
              queue: database.tenantQueue,
              timeoutMilliseconds: database.tenantQueueTimeoutMilliseconds,
            }),
        },
      ],
      exports: [UnitOfWork, FastPaths, Pruner, PartitionMaintenance, ReadPool, Replica, TenantTransactionLimiter, DatabaseConnectionModule],
    };
  }
}
