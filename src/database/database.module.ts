import { Global, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { buildDataSourceOptions } from './data-source-options';
import { DatabaseConnection } from './database-connection';
import { runMigrations } from './run-migrations';
import { UnitOfWork } from './unit-of-work';

@Module({
  providers: [
    { provide: DatabaseConnection, inject: [AppConfig], useFactory: (config: AppConfig) => DatabaseConnection.open(config) },
  ],
  exports: [DatabaseConnection],
})
class DatabaseConnectionModule {}

/** Closes the pool before the embedded server under it, whatever order Nest runs hooks in. */
@Injectable()
class DatabaseShutdown implements OnApplicationShutdown {
  constructor(
    private readonly dataSource: DataSource,
    private readonly connection: DatabaseConnection,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await this.connection.embedded?.stop();
  }
}

@Global()
@Module({
  imports: [
    DatabaseConnectionModule,
    TypeOrmModule.forRootAsync({
      imports: [DatabaseConnectionModule],
      inject: [DatabaseConnection],
      useFactory: (connection: DatabaseConnection) =>
        buildDataSourceOptions(connection.url, connection.embedded !== null),
      dataSourceFactory: async (options) => {
        if (!options) throw new Error('Database options are missing');
        const dataSource = await new DataSource(options).initialize();
        await runMigrations(dataSource);
        return dataSource;
      },
    }),
  ],
  providers: [UnitOfWork, DatabaseShutdown],
  exports: [UnitOfWork, DatabaseConnectionModule],
})
export class DatabaseModule {}
