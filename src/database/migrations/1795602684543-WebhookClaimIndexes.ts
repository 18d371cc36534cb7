import { MigrationInterface, QueryRunner } from 'typeorm';

export class WebhookClaimIndexes1795602684543 implements MigrationInterface {
  name = 'WebhookClaimIndexes1795602684543';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."webhook_deliveries_endpoint_pending_idx"`);
    await queryRunner.query(`DROP INDEX "public"."webhook_deliveries_due_idx"`);
    await queryRunner.query(`CREATE INDEX "webhook_deliveries_retry_due_idx" ON "webhook_deliveries" ("next_attempt_at") WHERE status = 'pending' AND attempt_count > 0 AND locked_until IS NULL`);
    await queryRunner.query(`CREATE INDEX "webhook_deliveries_blocking_idx" ON "webhook_deliveries" ("endpoint_id", "id") WHERE status = 'pending' AND (attempt_count = 0 OR locked_until IS NOT NULL)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."webhook_deliveries_blocking_idx"`);
    await queryRunner.query(`DROP INDEX "public"."webhook_deliveries_retry_due_idx"`);
    await queryRunner.query(`CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" ("next_attempt_at") WHERE (status = 'pending'::text)`);
    await queryRunner.query(`CREATE INDEX "webhook_deliveries_endpoint_pending_idx" ON "webhook_deliveries" ("endpoint_id", "id") WHERE (status = 'pending'::text)`);
  }
}
