import { Injectable, Logger, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { Clock } from '../clock/clock';
import { createPartitionsAhead, MonthlyPartitionedTable } from './monthly-partitions';
import { Pruner } from './pruner';
import type { Transaction } from './transaction';
import { UnitOfWork } from './unit-of-work';

/** pg_advisory_xact_lock key of creating partitions ("part" in ASCII): instances starting together take turns. */
export const PARTITION_LOCK_ID = 0x70617274;

/**
 * Keeps the partitions of this month and the next MONTHS_AHEAD of every monthly-partitioned table
 * (monthly-partitions.ts; each registered by the module that owns it): at start (after the migrations, which create them too) and at the start
 * of every pruning run (every PRUNE_INTERVAL), so a month's partition exists two months before its
 * first row. A row that finds none anyway goes to the default partition, never an error.
 */
@Injectable()
export class PartitionMaintenance implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger(PartitionMaintenance.name);
  private readonly partitioned: MonthlyPartitionedTable[] = [];

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly pruner: Pruner,
    private readonly clock: Clock,
  ) {}

  /** A table's owner opts it in at module init (its migration has partitioned it: partitionByMonth). */
  register(table: MonthlyPartitionedTable): void {
    this.partitioned.push(table);
  }

  /** The registered tables, in registration order. */
  tables(): ReadonlyArray<MonthlyPartitionedTable> {
    return this.partitioned;
  }

  onModuleInit(): void {
    this.pruner.registerUpkeep({ name: 'partitions', run: (tx, now) => this.createAhead(tx, now) });
  }

  /** Not fatal: the default partitions take the rows meanwhile, and the next pruning run tries again. */
  async onApplicationBootstrap(): Promise<void> {
    try {
      await this.unitOfWork.run((tx) => this.createAhead(tx, this.clock.now()));
    } catch (error) {
      this.logger.warn(`Creating the months' partitions ahead failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Creates the missing partitions of `now`'s month and the months ahead, of every table, with `tx`. */
  async createAhead(tx: Transaction, now: Date): Promise<void> {
    await tx.manager.query('SELECT pg_advisory_xact_lock($1)', [PARTITION_LOCK_ID]);
    let created = 0;
    for (const table of this.partitioned) created += await createPartitionsAhead(tx.manager, table, now);
    if (created > 0) this.logger.log(`Created ${created} monthly partitions ahead`);
  }
}
