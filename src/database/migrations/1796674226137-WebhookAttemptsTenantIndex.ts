import { MigrationInterface, QueryRunner } from 'typeorm';

/** GET /v1/webhook-deliveries reads a tenant's attempts to every endpoint, newest first: a keyset on this index. */
export class WebhookAttemptsTenantIndex1796674226137 implements MigrationInterface {
  name = 'WebhookAttemptsTenantIndex1796674226137';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "webhook_delivery_attempts_tenant_idx" ON "webhook_delivery_attempts" ("merchant_id", "mode", "attempted_at", "id") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."webhook_delivery_attempts_tenant_idx"`);
  }
}
