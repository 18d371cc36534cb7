import { Logger } from '@nestjs/common';
import type { ClientBase, PoolConfig } from 'pg';
import { EntitySchema } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
import type { DatabaseSettings } from '../config/app-config';
import type { StatementObserver } from '../observability/statement-observer';
import { MIGRATIONS } from './migrations';
import { observedClient } from './observed-client';

export type PoolSettings = Pick<
  DatabaseSettings,
  'poolSize' | 'acquireTimeoutMilliseconds' | 'statementTimeoutMilliseconds' | 'idleTransactionTimeoutMilliseconds'
> & {
  /** Sees every statement (metrics, traces); unset or inactive: pg's own client. */
  statements?: StatementObserver;
};

/** Scripts (migrations) run alone and may run long: no timeouts. */
const SCRIPT_POOL: PoolSettings = {
  poolSize: 10,
  acquireTimeoutMilliseconds: 0,
  statementTimeoutMilliseconds: 0,
  idleTransactionTimeoutMilliseconds: 0,
};

const logger = new Logger('Database');

/**
 * pg emits 'error' on a client whose connection dies: pg-pool handles idle clients, TypeORM the
 * ones its query runners hold, but a client between owners, or held by code without a listener,
 * would end the process with an unhandled 'error' event. Every client gets a listener from birth;
 * the request that was using it fails on its next query and answers 503.
 */
function listenForErrors(client: ClientBase): void {
  client.on('error', (error: Error) => logger.warn(`A database connection failed: ${error.message}`));
}

/**
 * node-postgres settings of one pool. `connectionTimeoutMillis` bounds both the wait for a pooled
 * connection and the making of a new one (the acquire timeout); statement_timeout and
 * idle_in_transaction_session_timeout are sent as startup parameters, so every session has them.
 * PGlite (embedded) is one session: a server-side timeout that ends it would end the database, so
 * it gets neither.
 */
export function buildPoolConfig(url: string, embedded: boolean, size: number, settings: PoolSettings): PoolConfig & { onConnect: (client: ClientBase) => void } {
  const serverSide = embedded
    ? {}
    : {
        keepAlive: true,
        ...(settings.statementTimeoutMilliseconds > 0 ? { statement_timeout: settings.statementTimeoutMilliseconds } : {}),
        ...(settings.idleTransactionTimeoutMilliseconds > 0
          ? { idle_in_transaction_session_timeout: settings.idleTransactionTimeoutMilliseconds }
          : {}),
      };
  return {
    connectionString: url,
    max: size,
    ...(settings.acquireTimeoutMilliseconds > 0 ? { connectionTimeoutMillis: settings.acquireTimeoutMilliseconds } : {}),
    application_name: 'entitlement-api',
    onConnect: listenForErrors,
    ...(settings.statements?.active ? { Client: observedClient(settings.statements) } : {}),
    ...serverSide,
  };
}

/** Every entity class of the application: the app assembles the list (app-entities.ts), not this layer. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export type EntityList = ReadonlyArray<Function | EntitySchema>;

export function buildDataSourceOptions(url: string, embedded: boolean, entities: EntityList, settings: PoolSettings = SCRIPT_POOL): PostgresConnectionOptions {
  return {
    type: 'postgres',
    url,
    entities: [...entities],
    migrations: MIGRATIONS,
    migrationsRun: false,
    migrationsTransactionMode: 'each',
    synchronize: false,
    // Failed queries surface as exceptions (logged once by the error filter); TypeORM's own
    // console logging would print expected conflicts (unique violations) and their parameters.
    logging: false,
    // PGlite is one session: a single pooled connection serialises transactions (DESIGN §2).
    extra: buildPoolConfig(url, embedded, embedded ? 1 : settings.poolSize, settings),
    poolErrorHandler: (error: Error) => logger.warn(`An idle database connection failed: ${error.message}`),
  };
}
