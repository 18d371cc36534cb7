import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { BackgroundLoop } from '../database/background-loop';
import type { Tenant } from '../database/tenant';
import type { Transaction } from '../database/transaction';
import { UnitOfWork } from '../database/unit-of-work';
import { LicenseActivationsRepository, StaleActivation } from './license-activations.repository';
import { toLicenseActivationResponse } from './license-key.mapper';

const BATCH_SIZE = 200;
/** Failing sweeps (the database away) are retried at most this far apart, as the expiry sweep's. */
const MAXIMUM_BACKOFF_MILLISECONDS = 5 * 60_000;

/**
 * Floating seats (DESIGN §18): every EXPIRY_SWEEP_INTERVAL, activations not seen for their key's
 * activation_ttl_seconds are released (deleted), each publishing license.activation_expired.
 * Customers on a test clock live at its time: their activations are released by the clock's
 * advance (sweepTestClock), not here. The schedule (single flight, stop, back-off) is
 * BackgroundLoop, as for the expiry sweep; `sweep()` called directly (tests) may run beside the
 * loop's pass, as another instance's would (the rows are locked SKIP LOCKED).
 */
@Injectable()
export class LicenseActivationSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly loop: BackgroundLoop<number>;

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly activations: LicenseActivationsRepository,
    private readonly clock: Clock,
    config: AppConfig,
  ) {
    this.loop = new BackgroundLoop({
      name: 'Activation sweep',
      intervalMilliseconds: config.expirySweepIntervalMilliseconds,
      firstDelayMilliseconds: config.expirySweepIntervalMilliseconds,
      maximumBackoffMilliseconds: MAXIMUM_BACKOFF_MILLISECONDS,
      pass: (signal) => this.sweepAll(signal),
      logger: new Logger(LicenseActivationSweeper.name),
    });
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  /** Stops the schedule; resolves once the running sweep's batch has committed. */
  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }

  /** Releases every activation stale at the clock's now; returns how many. */
  sweep(): Promise<number> {
    return this.sweepAll();
  }

  /** A test clock's advance: the same for its customers at its new time `now`, in the advance's transaction. */
  async sweepTestClock(tx: Transaction, tenant: Tenant, testClockId: string, now: Date): Promise<number> {
    let total = 0;
    for (;;) {
      const released = await this.release(tx, await this.activations.lockStaleForTestClock(tx, tenant, testClockId, now, BATCH_SIZE));
      total += released;
      if (released < BATCH_SIZE) return total;
    }
  }

  /** Batch after batch while batches come back full (and the loop is not stopping). */
  private async sweepAll(signal?: AbortSignal): Promise<number> {
    let total = 0;
    for (;;) {
      const now = this.clock.now();
      const released = await this.unitOfWork.run(async (tx) => this.release(tx, await this.activations.lockStaleAcrossTenants(tx, now, BATCH_SIZE)));
      total += released;
      if (released < BATCH_SIZE || signal?.aborted) return total;
    }
  }

  private async release(tx: Transaction, stale: StaleActivation[]): Promise<number> {
    for (const activation of stale) {
      const tenant: Tenant = { merchantId: activation.merchant_id, mode: activation.mode };
      await this.activations.delete(tx, tenant, activation.id);
      await tx.publish('license.activation_expired', tenant, { ...toLicenseActivationResponse(activation) });
    }
    return stale.length;
  }
}
