import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { BackgroundLoop } from '../database/background-loop';
import type { Tenant } from '../database/tenant';
import type { Transaction } from '../database/transaction';
import { UnitOfWork } from '../database/unit-of-work';
import { EntitlementTransitionsService } from './entitlement-transitions.service';
import { DueEntitlement, EntitlementsRepository } from './entitlements.repository';

const BATCH_SIZE = 200;
/** Failing sweeps (the database away) are retried at most this far apart. */
const MAXIMUM_BACKOFF_MILLISECONDS = 5 * 60_000;

/**
 * Persists time/usage expiry every EXPIRY_SWEEP_INTERVAL and publishes entitlement.expired once
 * per expiry. Reads already report the expiry from its instant; this makes it durable and tells
 * webhooks. `FOR UPDATE SKIP LOCKED` lets several instances sweep side by side without taking the
 * same row, and skips rows a lifecycle operation holds (that operation records the expiry itself).
 * Entitlements of a test clock's customers are left to the clock's advance (sweepTestClock).
 * The schedule (single flight, stop, back-off) is BackgroundLoop; `sweep()` called directly (tests)
 * may run beside the loop's pass, as another instance's would.
 */
@Injectable()
export class EntitlementExpirySweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly loop: BackgroundLoop<number>;

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly entitlements: EntitlementsRepository,
    private readonly transitions: EntitlementTransitionsService,
    private readonly clock: Clock,
    config: AppConfig,
  ) {
    this.loop = new BackgroundLoop({
      name: 'Expiry sweep',
      intervalMilliseconds: config.expirySweepIntervalMilliseconds,
      firstDelayMilliseconds: config.expirySweepIntervalMilliseconds,
      maximumBackoffMilliseconds: MAXIMUM_BACKOFF_MILLISECONDS,
      pass: (signal) => this.sweepAll(signal),
      logger: new Logger(EntitlementExpirySweeper.name),
    });
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  /** Stops the schedule; resolves once the running sweep's batch has committed. */
  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }

  /** Persists every expiry due at the clock's now; returns how many entitlements it expired. */
  sweep(): Promise<number> {
    return this.sweepAll();
  }

  /** Batch after batch while batches come back full (and the loop is not stopping). */
  private async sweepAll(signal?: AbortSignal): Promise<number> {
    let total = 0;
    for (;;) {
      const claimed = await this.sweepBatch();
      total += claimed;
      if (claimed < BATCH_SIZE || signal?.aborted) return total;
    }
  }

  /** One batch: how many due rows it claimed (a full batch means more may wait); it expires each of them. */
  private sweepBatch(): Promise<number> {
    const now = this.clock.now();
    return this.unitOfWork.run(async (tx) => this.expireEach(tx, await this.entitlements.lockDueAcrossTenants(tx, now, BATCH_SIZE)));
  }

  /**
   * A test clock's advance (DESIGN §14): what the sweep does for real time, for the clock's
   * entitlements at its new frozen time `now`, in the advance's transaction, so the advance
   * answers once everything due is applied. Returns how many it expired.
   */
  async sweepTestClock(tx: Transaction, tenant: Tenant, testClockId: string, now: Date): Promise<number> {
    let total = 0;
    for (;;) {
      const claimed = await this.expireEach(tx, await this.entitlements.lockDueForTestClock(tx, tenant, testClockId, now, BATCH_SIZE));
      total += claimed;
      if (claimed < BATCH_SIZE) return total;
    }
  }

  /**
   * The one expiry path (the lifecycle's expire): the same rules and exactly one event, whoever
   * expires it; a bundle parent's children expire with it.
   */
  private async expireEach(tx: Transaction, due: DueEntitlement[]): Promise<number> {
    for (const entitlement of due) {
      await this.transitions.expire(tx, { merchantId: entitlement.merchant_id, mode: entitlement.mode }, entitlement.id);
    }
    return due.length;
  }
}
