import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { BackgroundLoop } from './background-loop';
import type { Transaction } from './transaction';
import { UnitOfWork } from './unit-of-work';

/**
 * Rows of one table that are due for deletion (DESIGN §15: tables that only grow are bounded).
 * Registered with the Pruner by the module that owns the table.
 */
export interface PruneTask {
  /** What is pruned, for logs and reports (the table). */
  readonly name: string;
  /**
   * Deletes at most `limit` due rows with `tx` and returns how many. The rows are chosen
   * `FOR UPDATE SKIP LOCKED`, by an index, so a batch never waits for a row a request holds.
   */
  pruneBatch(tx: Transaction, limit: number, now: Date): Promise<number>;
  /**
   * For a table partitioned by month (monthly-partitions.ts): detaches and drops one partition
   * whose rows are all due and returns how many rows it held, or null when none is left to drop.
   * Called, each call its own short transaction, until null, before the batches (which then
   * delete only in the boundary month and the default partition).
   */
  dropPartition?(tx: Transaction, now: Date): Promise<number | null>;
}

/** Work of each run that deletes nothing (creating the months' partitions ahead), done first, in one transaction under the pruning lock. */
export interface UpkeepTask {
  readonly name: string;
  run(tx: Transaction, now: Date): Promise<void>;
}

/** What one run deleted per task; `ran: false` when another instance held the pruning lock. */
export interface PruneReport {
  ran: boolean;
  deleted: Record<string, number>;
}

/** Rows per batch: each batch is one short transaction, so its locks last milliseconds. */
export const PRUNE_BATCH_SIZE = 500;
/**
 * After each batch the pruner rests as long as the batch took (at least this long), so a backlog
 * takes at most half of one connection's time and of the disk's, however slow the database is.
 */
const MINIMUM_PAUSE_MILLISECONDS = 10;
/** The first run waits a little, so short-lived processes (CLI, tests) never start one. */
const FIRST_PRUNE_DELAY_MILLISECONDS = 60 * 1000;
/** Failing runs (the database away) are retried at most this far apart. */
const MAXIMUM_BACKOFF_MILLISECONDS = 60 * 60 * 1000;
/** pg_try_advisory_xact_lock key of pruning ("prune" in ASCII); the migrations' lock is another. */
export const PRUNE_LOCK_ID = 0x7072756e65;

/**
 * Deletes what has outlived its retention (events, deliveries and attempts past EVENT_RETENTION,
 * idempotency keys past 24 h, ended dashboard sessions, used or expired setup links), a minute
 * after start and then every PRUNE_INTERVAL (10 minutes): first its upkeep (the months'
 * partitions ahead), then per task the monthly partitions that are due whole (dropped, one per
 * transaction), then the rest in batches of PRUNE_BATCH_SIZE rows, each its own transaction,
 * resting between batches as long as each took. One instance at a time: every
 * batch first takes a transaction-level advisory lock, and an instance that finds it taken leaves
 * this round to the one holding it. "Due" is measured at the Clock's now. The schedule (single
 * flight, stop, back-off) is BackgroundLoop.
 */
@Injectable()
export class Pruner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(Pruner.name);
  private readonly tasks: PruneTask[] = [];
  private readonly upkeep: UpkeepTask[] = [];
  private readonly loop: BackgroundLoop<PruneReport>;

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    config: AppConfig,
  ) {
    this.loop = new BackgroundLoop({
      name: 'Pruning',
      intervalMilliseconds: config.pruneIntervalMilliseconds,
      firstDelayMilliseconds: FIRST_PRUNE_DELAY_MILLISECONDS,
      maximumBackoffMilliseconds: MAXIMUM_BACKOFF_MILLISECONDS,
      pass: async (signal) => this.logged(await this.runTasks(PRUNE_BATCH_SIZE, () => this.clock.now(), signal)),
      logger: this.logger,
    });
  }

  /** Owners register their tasks at module init; a run goes through them in this order. */
  register(task: PruneTask): void {
    this.tasks.push(task);
  }

  /** Upkeep that the module owning it registers at module init; it runs at the start of each run. */
  registerUpkeep(task: UpkeepTask): void {
    this.upkeep.push(task);
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  /** Stops the schedule; a running batch finishes (its transaction commits) before the database closes. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }

  /** No more scheduled runs (tests that call `run` themselves; a running one ends after its batch); `run` still works. */
  stopSchedule(): void {
    void this.loop.stop();
  }

  /** One run of every task until nothing is due (also what tests and operators call). A run already going is joined. */
  run(options: { batchSize?: number; now?: () => Date } = {}): Promise<PruneReport> {
    const now = options.now ?? (() => this.clock.now());
    return this.loop.run((signal) => this.runTasks(options.batchSize ?? PRUNE_BATCH_SIZE, now, signal));
  }

  private logged(report: PruneReport): PruneReport {
    const total = Object.values(report.deleted).reduce((sum, count) => sum + count, 0);
    if (total > 0) this.logger.log({ deleted: report.deleted }, `Pruned ${total} rows past their retention`);
    return report;
  }

  private async runTasks(batchSize: number, now: () => Date, signal: AbortSignal): Promise<PruneReport> {
    const deleted: Record<string, number> = {};
    /** `work` in its own transaction under the pruning lock; undefined when another instance holds the lock. */
    const locked = <Result>(work: (tx: Transaction) => Promise<Result>) =>
      this.unitOfWork.run(async (tx): Promise<Result | undefined> => {
        const [{ locked }] = (await tx.manager.query('SELECT pg_try_advisory_xact_lock($1) AS locked', [PRUNE_LOCK_ID])) as [{ locked: boolean }];
        return locked ? work(tx) : undefined;
      });
    if (this.upkeep.length > 0) {
      const done = await locked(async (tx) => {
        for (const task of this.upkeep) await task.run(tx, now());
        return true;
      });
      if (done === undefined) return { ran: false, deleted };
    }
    for (const task of this.tasks) {
      deleted[task.name] = 0;
      const dropPartition = task.dropPartition?.bind(task);
      while (dropPartition) {
        if (signal.aborted) return { ran: true, deleted };
        const rows = await locked((tx) => dropPartition(tx, now()));
        if (rows === undefined) return { ran: false, deleted };
        if (rows === null) break;
        deleted[task.name] += rows;
      }
      for (;;) {
        if (signal.aborted) return { ran: true, deleted };
        const startedAt = performance.now();
        const count = await locked(async (tx) => {
          // A lost batch (a crash before the WAL is flushed) is deleted again next time: its commit
          // need not wait for the disk, and requests' commits don't queue behind its flushes.
          await tx.manager.query('SET LOCAL synchronous_commit = off');
          return task.pruneBatch(tx, batchSize, now());
        });
        if (count === undefined) return { ran: false, deleted };
        deleted[task.name] += count;
        if (count < batchSize) break;
        await sleep(Math.max(MINIMUM_PAUSE_MILLISECONDS, performance.now() - startedAt));
      }
    }
    return { ran: true, deleted };
  }
}
