import { DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export function buildDataSourceOptions(url: string, embedded: boolean): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsRun: false,
    migrationsTransactionMode: 'each',
    synchronize: false,
    // Failed queries surface as exceptions (logged once by the error filter); TypeORM's own
    // console logging would print expected conflicts (unique violations) and their parameters.
    logging: false,
    // PGlite is one session: a single pooled connection serialises transactions (DESIGN §2).
    extra: embedded ? { max: 1 } : { max: 10 },
  };
}
