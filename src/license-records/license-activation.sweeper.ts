import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import type { Tenant } from '../database/tenant';
import type { Transaction } from '../database/transaction';
import { UnitOfWork } from '../database/unit-of-work';
import { LicenseActivationsRepository, StaleActivation } from './license-activations.repository';
import { toLicenseActivationResponse } from './license-key.mapper';

const BATCH_SIZE = 200;

/**
 * Floating seats (DESIGN §18): every EXPIRY_SWEEP_INTERVAL, activations not seen for their key's
 * activation_ttl_seconds are released (deleted), each publishing license.activation_expired.
 * Customers on a test clock live at its time: their activations are released by the clock's
 * advance (sweepTestClock), not here. `sweep` is a plain method, so whatever loop runs it (this
 * timer, or a shared sweeper loop) decides only when.
 */
@Injectable()
export class LicenseActivationSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(LicenseActivationSweeper.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly activations: LicenseActivationsRepository,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.sweep().catch((error: unknown) => this.logger.error(`Activation sweep failed: ${String(error)}`));
    }, this.config.expirySweepIntervalMilliseconds);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  /** Releases every activation stale at the clock's now; returns how many. */
  async sweep(): Promise<number> {
    const run = this.sweepAll();
    this.running = run;
    try {
      return await run;
    } finally {
      if (this.running === run) this.running = null;
    }
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

  private async sweepAll(): Promise<number> {
    let total = 0;
    for (;;) {
      const now = this.clock.now();
      const released = await this.unitOfWork.run(async (tx) => this.release(tx, await this.activations.lockStaleAcrossTenants(tx, now, BATCH_SIZE)));
      total += released;
      if (released < BATCH_SIZE) return total;
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
