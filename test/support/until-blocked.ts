import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { TenantTransactionLimiter } from '../../src/database/tenant-transaction-limiter';
import { eventually } from './eventually';
import type { TestApp } from './test-app';

/**
 * Resolves once a request of the merchant waits behind a transaction the test holds open: queued
 * for its merchant's share of transactions, for a pooled connection (the embedded database has
 * one), or on a row lock (PostgreSQL's pg_stat_activity). Observing the wait, instead of sleeping
 * and seeing nothing happen, proves the request got that far and is held there.
 */
export async function untilBlocked(testApp: TestApp, merchantId: string, withinMilliseconds = 15_000): Promise<void> {
  const dataSource = testApp.app.get(DataSource);
  const limiter = testApp.app.get(TenantTransactionLimiter);
  const pool = (dataSource.driver as PostgresDriver).master as Pool;
  const poolSize = (dataSource.options.extra as { max?: number } | undefined)?.max ?? 10;
  await eventually(
    async () => {
      if (limiter.load(merchantId).waiting > 0 || pool.waitingCount > 0) return true;
      // With one connection, asking PostgreSQL would itself wait for it.
      if (poolSize <= 1) return false;
      const [{ waiting }] = (await dataSource.query(`SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)) as Array<{
        waiting: number;
      }>;
      return waiting > 0;
    },
    withinMilliseconds,
    20,
  );
}
