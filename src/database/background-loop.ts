import type { LoggerService } from '@nestjs/common';

/** What a background loop runs, and how often. */
export interface BackgroundLoopOptions<Result> {
  /** What a pass does, for the log line of a failure ("Import batches"). */
  name: string;
  /** Rest between the end of one pass and the start of the next (from config). */
  intervalMilliseconds: number;
  /** Rest before the first pass after `start()`; 0 (the default) runs it at once. */
  firstDelayMilliseconds?: number;
  /**
   * Longest rest after failing passes: each failure in a row doubles the interval up to this (never
   * less than the interval), so a database that is down is not hammered; a success resets it.
   */
  maximumBackoffMilliseconds: number;
  /**
   * One pass. `signal` aborts when the loop stops: a pass that works through batches checks it
   * between them and returns early, so `stop()` waits for one batch, not a backlog.
   */
  pass: (signal: AbortSignal) => Promise<Result>;
  /** A pass's failure is written here (the owner's logger, with its context). */
  logger: Pick<LoggerService, 'error'>;
}

/**
 * The one background loop (the import worker, the expiry sweeper and the pruner run on it):
 * - single flight: a pass never overlaps another pass of the same loop; `run()` during a pass
 *   joins it, `wake()` during a pass asks for one more right after it;
 * - wake-up: `wake()` runs a pass at once when none is running (new work arrived here);
 * - stop: `stop()` cancels the schedule, aborts the running pass's signal and resolves once that
 *   pass has ended; no scheduled or woken pass follows (an explicit `run()` still works: tests and
 *   operators call it after stopping the schedule);
 * - back-off: a failing pass is logged and the next one waits twice as long as the last, up to
 *   `maximumBackoffMilliseconds`; a successful pass resets the rest to the interval.
 * Timers are unref'd, so a loop never keeps a process alive.
 */
export class BackgroundLoop<Result> {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<Result> | null = null;
  private abortRunning: AbortController | null = null;
  private wokenWhileRunning = false;
  private scheduling = false;
  private stopped = false;
  private failuresInARow = 0;

  constructor(private readonly options: BackgroundLoopOptions<Result>) {}

  /** Starts the schedule: the first pass after `firstDelayMilliseconds`, then one every interval. */
  start(): void {
    if (this.stopped || this.scheduling) return;
    this.scheduling = true;
    if (!this.running) this.schedule(this.options.firstDelayMilliseconds ?? 0);
  }

  /** A pass soon: at once when none is running, else right after the running one. Nothing once stopped. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.wokenWhileRunning = true;
      return;
    }
    this.startPass(this.options.pass).catch(() => undefined);
  }

  /**
   * A pass now, or the running one joined; resolves with its result, rejects with its error
   * (`pass` replaces the loop's own for this run, e.g. with other options).
   */
  run(pass: (signal: AbortSignal) => Promise<Result> = this.options.pass): Promise<Result> {
    return this.running ?? this.startPass(pass);
  }

  /** No more scheduled or woken passes; resolves once the running pass (told to stop) has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.scheduling = false;
    this.wokenWhileRunning = false;
    this.clearTimer();
    this.abortRunning?.abort();
    await this.running?.catch(() => undefined);
  }

  /** The rest before the next scheduled pass: the interval, doubled for each failure in a row, capped. */
  get nextDelayMilliseconds(): number {
    const { intervalMilliseconds, maximumBackoffMilliseconds } = this.options;
    if (this.failuresInARow === 0) return intervalMilliseconds;
    return Math.max(intervalMilliseconds, Math.min(intervalMilliseconds * 2 ** this.failuresInARow, maximumBackoffMilliseconds));
  }

  private startPass(pass: (signal: AbortSignal) => Promise<Result>): Promise<Result> {
    this.clearTimer();
    const abort = new AbortController();
    this.abortRunning = abort;
    // Called through a resolved promise so a pass that throws before its first await is a rejection too.
    const running = Promise.resolve()
      .then(() => pass(abort.signal))
      .then(
        (result) => {
          this.failuresInARow = 0;
          return result;
        },
        (error: unknown) => {
          this.failuresInARow += 1;
          const next = this.scheduling && !this.stopped ? `; next pass in ${this.nextDelayMilliseconds} ms` : '';
          this.options.logger.error({ err: error, failuresInARow: this.failuresInARow }, `${this.options.name} failed${next}`);
          throw error;
        },
      )
      .finally(() => this.passEnded());
    this.running = running;
    return running;
  }

  private passEnded(): void {
    this.running = null;
    this.abortRunning = null;
    if (this.stopped) return;
    if (this.wokenWhileRunning) {
      this.wokenWhileRunning = false;
      this.wake();
    } else if (this.scheduling) {
      this.schedule(this.nextDelayMilliseconds);
    }
  }

  private schedule(delay: number): void {
    this.clearTimer();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.wake();
    }, delay);
    this.timer.unref();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
