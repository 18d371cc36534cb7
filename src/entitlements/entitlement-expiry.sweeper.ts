import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { In } from 'typeorm';
import type { Tenant } from '../auth/tenant';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { UnitOfWork } from '../database/unit-of-work';
import { runOutSql } from './effective-status';
import { EntitlementEntity } from './entitlement.entity';
import { EntitlementWithCustomer, toEntitlementResponse } from './entitlement.mapper';

const BATCH_SIZE = 200;

/**
 * Persists time/usage expiry every EXPIRY_SWEEP_INTERVAL and publishes entitlement.expired once
 * per expiry. Reads already report the expiry from its instant; this makes it durable and tells
 * webhooks. `FOR UPDATE SKIP LOCKED` lets several instances sweep side by side without taking the
 * same row, and skips rows a lifecycle operation holds (that operation records the expiry itself).
 */
@Injectable()
export class EntitlementExpirySweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(EntitlementExpirySweeper.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.sweep().catch((error: unknown) => this.logger.error(`Expiry sweep failed: ${String(error)}`));
    }, this.config.expirySweepIntervalMilliseconds);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  /** Persists every expiry due at the clock's now; returns how many entitlements it expired. */
  async sweep(): Promise<number> {
    const run = this.sweepAll();
    this.running = run;
    try {
      return await run;
    } finally {
      if (this.running === run) this.running = null;
    }
  }

  private async sweepAll(): Promise<number> {
    let total = 0;
    for (;;) {
      const swept = await this.sweepBatch();
      total += swept;
      if (swept < BATCH_SIZE) return total;
    }
  }

  private sweepBatch(): Promise<number> {
    const now = this.clock.now();
    return this.unitOfWork.run(async ({ manager, publish }) => {
      const rows: { id: string }[] = await manager.query(
        `WITH due AS (
           SELECT id FROM entitlements e
           WHERE e.status = 'active' AND ${runOutSql('e', '$1')}
           ORDER BY id
           LIMIT $2
           FOR UPDATE SKIP LOCKED
         ), expired AS (
           UPDATE entitlements SET status = 'expired', updated_at = now()
           FROM due WHERE entitlements.id = due.id
           RETURNING entitlements.id
         )
         SELECT id FROM expired`,
        [now.toISOString(), BATCH_SIZE],
      );
      if (rows.length === 0) return 0;
      const entitlements = (await manager.find(EntitlementEntity, {
        where: { id: In(rows.map((row) => row.id)) },
        relations: { customer: true },
        order: { id: 'ASC' },
      })) as EntitlementWithCustomer[];
      for (const entitlement of entitlements) {
        const tenant: Tenant = { merchantId: entitlement.merchant_id, mode: entitlement.mode };
        await publish('entitlement.expired', tenant, { ...toEntitlementResponse(entitlement, now) });
      }
      return rows.length;
    });
  }
}
