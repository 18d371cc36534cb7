import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddCustomerPortal1796677809680 implements MigrationInterface {
  name = 'AddCustomerPortal1796677809680';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "portal_sessions" ("id" text NOT NULL, "merchant_id" text NOT NULL, "mode" text NOT NULL, "customer_id" text NOT NULL, "return_url" text, "link_token_hash" text NOT NULL, "link_expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "opened_at" TIMESTAMP(3) WITH TIME ZONE, "cookie_token_hash" text, "csrf_token" text, "last_seen_at" TIMESTAMP(3) WITH TIME ZONE, "ended_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_379dfbd23aa9d6e2503df20cb3d" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "portal_sessions_unopened_expires_idx" ON "portal_sessions" ("link_expires_at") WHERE opened_at IS NULL`);
    await queryRunner.query(`CREATE INDEX "portal_sessions_last_seen_idx" ON "portal_sessions" ("last_seen_at") WHERE last_seen_at IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "portal_sessions_customer_idx" ON "portal_sessions" ("merchant_id", "mode", "customer_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "portal_sessions_cookie_token_hash_key" ON "portal_sessions" ("cookie_token_hash") WHERE cookie_token_hash IS NOT NULL`);
    await queryRunner.query(`CREATE UNIQUE INDEX "portal_sessions_link_token_hash_key" ON "portal_sessions" ("link_token_hash") `);
    await queryRunner.query(`CREATE TABLE "portal_settings" ("merchant_id" text NOT NULL, "mode" text NOT NULL, "display_name" text, "accent_color" text, "logo_url" text, "support_url" text, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b46304196541b1c8d5640ac718d" PRIMARY KEY ("merchant_id", "mode"))`);
    await queryRunner.query(`ALTER TABLE "portal_sessions" ADD CONSTRAINT "FK_7545c25553f8f95c7fd897079c0" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "portal_settings" ADD CONSTRAINT "FK_7c44d321a40483f4526aeb981fe" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "portal_settings" DROP CONSTRAINT "FK_7c44d321a40483f4526aeb981fe"`);
    await queryRunner.query(`ALTER TABLE "portal_sessions" DROP CONSTRAINT "FK_7545c25553f8f95c7fd897079c0"`);
    await queryRunner.query(`DROP TABLE "portal_settings"`);
    await queryRunner.query(`DROP INDEX "public"."portal_sessions_link_token_hash_key"`);
    await queryRunner.query(`DROP INDEX "public"."portal_sessions_cookie_token_hash_key"`);
    await queryRunner.query(`DROP INDEX "public"."portal_sessions_customer_idx"`);
    await queryRunner.query(`DROP INDEX "public"."portal_sessions_last_seen_idx"`);
    await queryRunner.query(`DROP INDEX "public"."portal_sessions_unopened_expires_idx"`);
    await queryRunner.query(`DROP TABLE "portal_sessions"`);
  }
}
