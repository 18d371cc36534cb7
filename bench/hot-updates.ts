import { Client } from 'pg';

/** The updates of a table in a window, and how many of them were HOT (heap-only: no index entry written). */
export interface HotUpdates {
  table: string;
  updates: number;
  hotUpdates: number;
  /** hotUpdates ÷ updates in %, to 0.1 (0 when nothing was updated). */
  hotPercent: number;
}

interface Counters {
  updates: number;
  hotUpdates: number;
}

const FLUSH_WAIT_MILLISECONDS = 20_000;

async function counters(database: Client, table: string): Promise<Counters> {
  // A fresh snapshot of the statistics each time (they are cached for a transaction otherwise).
  await database.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await database.query<{ updates: string; hot: string }>(
    'SELECT n_tup_upd AS updates, n_tup_hot_upd AS hot FROM pg_stat_user_tables WHERE relname = $1',
    [table],
  );
  return { updates: Number(rows[0]?.updates ?? 0), hotUpdates: Number(rows[0]?.hot ?? 0) };
}

async function downloadCount(database: Client, fileId: string): Promise<number> {
  const { rows } = await database.query<{ download_count: number }>('SELECT download_count FROM files WHERE id = $1', [fileId]);
  return rows[0]?.download_count ?? 0;
}

/**
 * Runs `work` (downloads of the file `fileId`) and reports the HOT share of the entitlements'
 * updates it caused, from `pg_stat_user_tables` of the database `database` is connected to. Each
 * download updates its entitlement once, and the file's download_count counts the downloads; the
 * server's backends flush their counters at most once a second while busy and within about 10 s
 * once idle (PostgreSQL 15), so this waits (≤ 20 s) until the counters show as many updates as
 * downloads were made.
 */
export async function withEntitlementHotUpdates<T>(database: Client, fileId: string, work: () => Promise<T>): Promise<{ result: T; hot: HotUpdates }> {
  const table = 'entitlements';
  const before = await counters(database, table);
  const downloadsBefore = await downloadCount(database, fileId);
  const result = await work();
  const downloads = (await downloadCount(database, fileId)) - downloadsBefore;
  const started = Date.now();
  let after = await counters(database, table);
  while (after.updates - before.updates < downloads && Date.now() - started < FLUSH_WAIT_MILLISECONDS) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    after = await counters(database, table);
  }
  const updates = after.updates - before.updates;
  const hotUpdates = after.hotUpdates - before.hotUpdates;
  return { result, hot: { table, updates, hotUpdates, hotPercent: updates === 0 ? 0 : Math.round((1000 * hotUpdates) / updates) / 10 } };
}
