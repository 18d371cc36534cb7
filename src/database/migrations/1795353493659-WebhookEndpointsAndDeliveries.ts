import { MigrationInterface, QueryRunner } from 'typeorm';

export class WebhookEndpointsAndDeliveries1795353493659 implements MigrationInterface {
  name = 'WebhookEndpointsAndDeliveries1795353493659';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "webhook_endpoints" ("id" text NOT NULL, "merchant_id" text NOT NULL, "mode" text NOT NULL, "url" text NOT NULL, "description" text, "enabled_events" text array NOT NULL, "disabled" boolean NOT NULL DEFAULT false, "disabled_reason" text, "secret" text NOT NULL, "previous_secret" text, "previous_secret_expires_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_054c4cfb95223732f5939d2d546" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "webhook_endpoints_tenant_created_idx" ON "webhook_endpoints" ("merchant_id", "mode", "created_at", "id") `);
    await queryRunner.query(`CREATE TABLE "webhook_delivery_attempts" ("id" text NOT NULL, "merchant_id" text NOT NULL, "mode" text NOT NULL, "endpoint_id" text NOT NULL, "event_id" text NOT NULL, "event_type" text NOT NULL, "attempt" integer NOT NULL, "succeeded" boolean NOT NULL, "status_code" integer, "error" text, "duration_ms" integer NOT NULL, "response_body" text, "attempted_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "next_attempt_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_59ef9124585b56c18b98548a0c6" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "webhook_delivery_attempts_endpoint_idx" ON "webhook_delivery_attempts" ("endpoint_id", "attempted_at", "id") `);
    await queryRunner.query(`CREATE TABLE "webhook_deliveries" ("id" BIGSERIAL NOT NULL, "merchant_id" text NOT NULL, "mode" text NOT NULL, "endpoint_id" text NOT NULL, "event_id" text NOT NULL, "status" text NOT NULL DEFAULT 'pending', "attempt_count" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "locked_until" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_535dd409947fb6d8fc6dfc0112a" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "webhook_deliveries_endpoint_pending_idx" ON "webhook_deliveries" ("endpoint_id", "id") WHERE status = 'pending'`);
    await queryRunner.query(`CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" ("next_attempt_at") WHERE status = 'pending'`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "FK_a10c384003f1a413769236ef6d8" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "FK_3c48887ba13739e9feeebbaddc7" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "FK_0b882c26a9b91c26e6e86b4867c" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "FK_27d1ee90033bdafe0ffe8f1be6f" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "FK_27d1ee90033bdafe0ffe8f1be6f"`);
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "FK_0b882c26a9b91c26e6e86b4867c"`);
    await queryRunner.query(`ALTER TABLE "webhook_delivery_attempts" DROP CONSTRAINT "FK_3c48887ba13739e9feeebbaddc7"`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" DROP CONSTRAINT "FK_a10c384003f1a413769236ef6d8"`);
    await queryRunner.query(`DROP INDEX "public"."webhook_deliveries_due_idx"`);
    await queryRunner.query(`DROP INDEX "public"."webhook_deliveries_endpoint_pending_idx"`);
    await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
    await queryRunner.query(`DROP INDEX "public"."webhook_delivery_attempts_endpoint_idx"`);
    await queryRunner.query(`DROP TABLE "webhook_delivery_attempts"`);
    await queryRunner.query(`DROP INDEX "public"."webhook_endpoints_tenant_created_idx"`);
    await queryRunner.query(`DROP TABLE "webhook_endpoints"`);
  }
}
