import { MigrationInterface, QueryRunner } from 'typeorm';
import { partitionByMonth, unpartition } from '../monthly-partitions';

/**
 * Events, webhook deliveries, their attempts and downloads partitioned by month on their time
 * column (DESIGN §15 "Time partitions"): retention drops a month whole. Each table is rebuilt
 * with its rows, indexes and foreign keys; its primary key gains the time column (PostgreSQL's
 * rule for a partitioned table). Rebuilding copies every row while holding the tables: on a large
 * database run it at a quiet time (docs/operations.md).
 *
 * The foreign key webhook_deliveries.event_id → events.id goes: a key into a partitioned table
 * must name its partition key too, and a delivery does not carry its event's created_at. What it
 * guarded is kept by how rows are written and deleted: a delivery is inserted by the same
 * statement as its event (outbox.repository.ts), and retention deletes settled deliveries before
 * events and never an event (or an events partition) with a pending delivery, so no delivery
 * outlives its event while it is still to be sent; its ON DELETE CASCADE is now the deliveries'
 * own age-based prune (a delivery is created with its event, so it is the same age).
 */
export class MonthlyPartitions1795920000000 implements MigrationInterface {
  name = 'MonthlyPartitions1795920000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await partitionByMonth(queryRunner, 'events', 'created_at', ['webhook_deliveries']);
    await partitionByMonth(queryRunner, 'webhook_deliveries', 'created_at');
    await partitionByMonth(queryRunner, 'webhook_delivery_attempts', 'attempted_at');
    await partitionByMonth(queryRunner, 'downloads', 'downloaded_at');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await unpartition(queryRunner, 'downloads', 'downloaded_at');
    await unpartition(queryRunner, 'webhook_delivery_attempts', 'attempted_at');
    await unpartition(queryRunner, 'webhook_deliveries', 'created_at');
    await unpartition(queryRunner, 'events', 'created_at');
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "FK_27d1ee90033bdafe0ffe8f1be6f" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }
}
