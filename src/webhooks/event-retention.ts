import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { PartitionMaintenance } from '../database/partition-maintenance';
import { PruneTask, Pruner } from '../database/pruner';
import type { Transaction } from '../database/transaction';
import { EventRetentionRepository } from './event-retention.repository';

/**
 * EVENT_RETENTION (DESIGN §15): attempts, then settled deliveries, then events without a pending
 * delivery, older than the retention, deleted by the Pruner: first each month (partition) that is
 * due whole is dropped, then the boundary month's due rows are deleted in batches; in that order
 * so no settled delivery outlives its event. `0` keeps them all (no task is registered).
 */
@Injectable()
export class EventRetention implements OnModuleInit {
  private readonly retentionMilliseconds: number;

  constructor(
    config: AppConfig,
    private readonly retention: EventRetentionRepository,
    private readonly pruner: Pruner,
    private readonly partitions: PartitionMaintenance,
  ) {
    this.retentionMilliseconds = config.eventRetentionMilliseconds;
  }

  onModuleInit(): void {
    // Partitioned by month whatever the retention (migration MonthlyPartitions): their months are made ahead.
    this.partitions.register({ table: 'events', column: 'created_at' });
    this.partitions.register({ table: 'webhook_deliveries', column: 'created_at' });
    this.partitions.register({ table: 'webhook_delivery_attempts', column: 'attempted_at' });
    if (this.retentionMilliseconds === 0) return;
    const cutoff = (now: Date) => new Date(now.getTime() - this.retentionMilliseconds);
    const task = (
      name: string,
      dropPartition: (tx: Transaction, cutoff: Date) => Promise<number | null>,
      deleteBatch: (tx: Transaction, cutoff: Date, limit: number) => Promise<number>,
    ): PruneTask => ({
      name,
      dropPartition: (tx, now) => dropPartition(tx, cutoff(now)),
      pruneBatch: (tx, limit, now) => deleteBatch(tx, cutoff(now), limit),
    });
    const retention = this.retention;
    this.pruner.register(task('webhook_delivery_attempts', (tx, before) => retention.dropAttemptsPartition(tx, before), (tx, before, limit) => retention.deleteAttempts(tx, before, limit)));
    this.pruner.register(task('webhook_deliveries', (tx, before) => retention.dropDeliveriesPartition(tx, before), (tx, before, limit) => retention.deleteDeliveries(tx, before, limit)));
    this.pruner.register(task('events', (tx, before) => retention.dropEventsPartition(tx, before), (tx, before, limit) => retention.deleteEvents(tx, before, limit)));
  }
}
