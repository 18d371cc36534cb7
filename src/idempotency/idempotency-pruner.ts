import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { IdempotencyService } from './idempotency.service';

const PRUNE_INTERVAL_MILLISECONDS = 60 * 60 * 1000;
/** The first prune waits a little, so short-lived processes (CLI, tests) never start one. */
const FIRST_PRUNE_DELAY_MILLISECONDS = 60 * 1000;

/**
 * Deletes idempotency keys past their 24 h retention, a minute after start and then hourly.
 * Safe on several instances: it is one idempotent DELETE.
 */
@Injectable()
export class IdempotencyPruner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(IdempotencyPruner.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(private readonly idempotency: IdempotencyService) {}

  onApplicationBootstrap(): void {
    this.schedule(FIRST_PRUNE_DELAY_MILLISECONDS);
  }

  /** Stops the schedule and lets a running prune finish before the database closes. */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(delay: number): void {
    this.timer = setTimeout(() => {
      this.running = this.run().finally(() => {
        this.running = null;
        if (this.timer) this.schedule(PRUNE_INTERVAL_MILLISECONDS);
      });
    }, delay);
    this.timer.unref();
  }

  private async run(): Promise<void> {
    try {
      const deleted = await this.idempotency.prune();
      if (deleted > 0) this.logger.log(`Pruned ${deleted} expired idempotency keys`);
    } catch (error) {
      this.logger.error({ err: error }, 'Pruning idempotency keys failed');
    }
  }
}
