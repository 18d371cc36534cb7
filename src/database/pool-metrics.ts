import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { Metrics, PoolStatistics } from '../observability/metrics';
import { ReadPool } from './read-pool';

function statisticsOf(pool: string, { totalCount, idleCount, waitingCount }: Pool): PoolStatistics {
  return { pool, total: totalCount, idle: idleCount, waiting: waitingCount };
}

/** db_pool_connections for the main pool and, when it has its own, the check's (`check`), read on each scrape. */
@Injectable()
export class PoolMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: Metrics,
    private readonly dataSource: DataSource,
    private readonly readPool: ReadPool,
  ) {}

  onModuleInit(): void {
    if (!this.metrics.enabled) return;
    const main = (this.dataSource.driver as PostgresDriver).master as Pool;
    const check = this.readPool.owned ? this.readPool.pool : null;
    this.metrics.observePools(() => (check ? [statisticsOf('main', main), statisticsOf('check', check)] : [statisticsOf('main', main)]));
  }
}
