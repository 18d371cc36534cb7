import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { BackgroundLoop } from '../database/background-loop';
import { ImportBatchProcessor } from './import-batch.processor';

/** Failing batches (the database away) are retried at most this far apart. */
const MAXIMUM_BACKOFF_MILLISECONDS = 60_000;

/**
 * Processes imports in the background, in this process: started with the app, woken when an
 * import is created here, and polling every IMPORT_POLL_INTERVAL for imports created elsewhere or
 * left by a crash. A pass works batch after batch until no row is pending; several instances share
 * the rows (SKIP LOCKED). Shutdown lets the running batch commit, then stops. The loop itself
 * (single flight, wake-up, stop, back-off) is BackgroundLoop.
 */
@Injectable()
export class ImportWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly loop: BackgroundLoop<void>;

  constructor(
    private readonly batches: ImportBatchProcessor,
    config: AppConfig,
  ) {
    this.loop = new BackgroundLoop({
      name: 'Import batches',
      intervalMilliseconds: config.importPollIntervalMilliseconds,
      maximumBackoffMilliseconds: MAXIMUM_BACKOFF_MILLISECONDS,
      // A failed batch rolled back: its rows stay pending for the next pass.
      pass: (signal) => this.drain(signal),
      logger: new Logger(ImportWorker.name),
    });
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  /** Stops taking batches; resolves once the running one has committed (or rolled back). */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Starts working unless it is already (then it looks again once done). */
  wake(): void {
    this.loop.wake();
  }

  private async drain(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      if (!(await this.batches.processNextBatch())) return;
    }
  }
}
