import { MigrationInterface, QueryRunner } from 'typeorm';

export class WebhookDeliveriesPerObject1795730000000 implements MigrationInterface {
  name = 'WebhookDeliveriesPerObject1795730000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Queued deliveries take their event's object id (deliveryObjectId in outbox.repository.ts, as of this migration).
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" ADD "object_id" text`);
    await queryRunner.query(
      `UPDATE "webhook_deliveries" AS delivery SET "object_id" = CASE WHEN jsonb_typeof(event.data->'object'->'id') = 'string' THEN event.data->'object'->>'id' ELSE event.id END FROM "events" AS event WHERE event.id = delivery.event_id`,
    );
    await queryRunner.query(`UPDATE "webhook_deliveries" SET "object_id" = "event_id" WHERE "object_id" IS NULL`);
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" ALTER COLUMN "object_id" SET NOT NULL`);
    await queryRunner.query(`CREATE INDEX "webhook_deliveries_leased_idx" ON "webhook_deliveries" ("endpoint_id") WHERE status = 'pending' AND locked_until IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "webhook_deliveries_object_blocking_idx" ON "webhook_deliveries" ("endpoint_id", "object_id", "id") WHERE status = 'pending' AND (attempt_count = 0 OR locked_until IS NOT NULL)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."webhook_deliveries_object_blocking_idx"`);
    await queryRunner.query(`DROP INDEX "public"."webhook_deliveries_leased_idx"`);
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP COLUMN "object_id"`);
  }
}
