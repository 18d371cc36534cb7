import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { PruneTask, Pruner } from '../database/pruner';
import type { Transaction } from '../database/transaction';
import { EventRetentionRepository } from './event-retention.repository';

/**
 * EVENT_RETENTION (DESIGN §15): attempts, then settled deliveries, then events without a pending
 * delivery, older than the retention, deleted by the Pruner in batches; in that order so the
 * events' cascade finds little left to delete. `0` keeps them all (no task is registered).
 */
@Injectable()
export class EventRetention implements OnModuleInit {
  private readonly retentionMilliseconds: number;

  constructor(
    config: AppConfig,
    private readonly retention: EventRetentionRepository,
    private readonly pruner: Pruner,
  ) {
    this.retentionMilliseconds = config.eventRetentionMilliseconds;
  }

  onModuleInit(): void {
    if (this.retentionMilliseconds === 0) return;
    const cutoff = (now: Date) => new Date(now.getTime() - this.retentionMilliseconds);
    const task = (name: string, deleteBatch: (tx: Transaction, cutoff: Date, limit: number) => Promise<number>): PruneTask => ({
      name,
      pruneBatch: (tx, limit, now) => deleteBatch(tx, cutoff(now), limit),
    });
    this.pruner.register(task('webhook_delivery_attempts', (tx, before, limit) => this.retention.deleteAttempts(tx, before, limit)));
    this.pruner.register(task('webhook_deliveries', (tx, before, limit) => this.retention.deleteDeliveries(tx, before, limit)));
    this.pruner.register(task('events', (tx, before, limit) => this.retention.deleteEvents(tx, before, limit)));
  }
}
