import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { Metrics, PoolStatistics } from '../observability/metrics';
import { Tracing } from '../observability/tracing';
import { ReadPool } from './read-pool';
import { Replica } from './replica';

function statisticsOf(pool: string, { totalCount, idleCount, waitingCount }: Pool): PoolStatistics {
  return { pool, total: totalCount, idle: idleCount, waiting: waitingCount };
}

type ConnectCallback = Parameters<Pool['connect']>[0];

/**
 * pg-pool hands a queued caller its connection from whoever released it, so its callback (and the
 * statement it sends: pool.query's) would run in the releaser's trace. Each callback is bound to
 * its caller's context instead, so a request's statements stay its children under contention.
 */
function keepCallersContext(pool: Pool, tracing: Tracing): void {
  const connect = pool.connect.bind(pool) as (callback?: ConnectCallback) => unknown;
  pool.connect = ((callback?: ConnectCallback) => connect(callback ? tracing.bind(callback) : undefined)) as Pool['connect'];
}

/**
 * The pools seen from outside: db_pool_connections for the main pool and, when they exist, the
 * check's own (`check`) and the read replica's (`replica`), read on each scrape; and, with tracing on, statements kept in their caller's trace.
 */
@Injectable()
export class PoolObservation implements OnModuleInit {
  constructor(
    private readonly metrics: Metrics,
    private readonly tracing: Tracing,
    private readonly dataSource: DataSource,
    private readonly readPool: ReadPool,
    private readonly replica: Replica,
  ) {}

  onModuleInit(): void {
    const main = (this.dataSource.driver as PostgresDriver).master as Pool;
    const pools = new Map<string, Pool>([['main', main]]);
    if (this.readPool.owned) pools.set('check', this.readPool.pool);
    if (this.replica.pool) pools.set('replica', this.replica.pool);
    if (this.tracing.enabled) for (const pool of pools.values()) keepCallersContext(pool, this.tracing);
    if (this.metrics.enabled) this.metrics.observePools(() => [...pools].map(([name, pool]) => statisticsOf(name, pool)));
  }
}
