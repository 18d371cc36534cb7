import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ImportBatchProcessor } from './import-batch.processor';

/** How often an idle worker looks for rows another instance (or a crashed one) left pending. */
const POLL_INTERVAL_MILLISECONDS = 1_000;

/**
 * Processes imports in the background, in this process: started with the app, woken when an
 * import is created here, and polling for imports created elsewhere or left by a crash. It works
 * batch after batch until no row is pending; several instances share the rows (SKIP LOCKED).
 * Shutdown lets the running batch commit, then stops.
 */
@Injectable()
export class ImportWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ImportWorker.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private wokenWhileRunning = false;
  private stopped = false;

  constructor(private readonly batches: ImportBatchProcessor) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.wake(), POLL_INTERVAL_MILLISECONDS);
    this.timer.unref();
    this.wake();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  /** Stops taking batches; resolves once the running one has committed (or rolled back). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Starts working unless it is already (then it looks again once done). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.wokenWhileRunning = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = null;
      if (this.wokenWhileRunning) {
        this.wokenWhileRunning = false;
        this.wake();
      }
    });
  }

  /** Resolves once no row is pending (tests, the CLI). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    while (!this.stopped) {
      let processed: boolean;
      try {
        processed = await this.batches.processNextBatch();
      } catch (error) {
        // The batch rolled back; its rows stay pending for the next poll.
        this.logger.error(`Import batch failed: ${error instanceof Error ? error.message : String(error)}`);
        return;
      }
      if (!processed) return;
    }
  }
}
