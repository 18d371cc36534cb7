import { MigrationInterface, QueryRunner } from 'typeorm';

export class Initial1795353159306 implements MigrationInterface {
  name = 'Initial1795353159306';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "merchants" ("id" text NOT NULL, "name" text NOT NULL, "plan" text NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_4fd312ef25f8e05ad47bfe7ed25" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE TABLE "api_keys" ("id" text NOT NULL, "merchant_id" text NOT NULL, "key_hash" text NOT NULL, "prefix" text NOT NULL, "mode" text NOT NULL, "scopes" text array NOT NULL, "name" text, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "last_used_at" TIMESTAMP(3) WITH TIME ZONE, "revoked_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_5c8a79801b44bd27b79228e1dad" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys" ("key_hash") `);
    await queryRunner.query(`CREATE INDEX "api_keys_merchant_idx" ON "api_keys" ("merchant_id", "created_at") `);
    await queryRunner.query(`CREATE TABLE "products" ("id" text NOT NULL, "merchant_id" text NOT NULL, "mode" text NOT NULL, "store_product_id" text, "store_variant_ids" text array NOT NULL DEFAULT '{}', "name" text NOT NULL, "description" text NOT NULL DEFAULT '', "entitlement_type" text NOT NULL, "access_duration_days" integer, "usage_limit" integer, "metadata" jsonb NOT NULL DEFAULT '{}', "fulfillment_config" jsonb NOT NULL, "status" text NOT NULL DEFAULT 'active', "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_0806c755e0aca124e67c0cf6d7d" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "products_store_id_key" ON "products" ("merchant_id", "mode", "store_product_id") WHERE store_product_id IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "products_tenant_created_idx" ON "products" ("merchant_id", "mode", "created_at", "id") `);
    await queryRunner.query(`CREATE TABLE "events" ("id" text NOT NULL, "merchant_id" text NOT NULL, "mode" text NOT NULL, "type" text NOT NULL, "data" jsonb NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_40731c7151fe4be3116e45ddf73" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "events_tenant_type_created_idx" ON "events" ("merchant_id", "mode", "type", "created_at") `);
    await queryRunner.query(`CREATE INDEX "events_tenant_created_idx" ON "events" ("merchant_id", "mode", "created_at", "id") `);
    await queryRunner.query(`ALTER TABLE "api_keys" ADD CONSTRAINT "FK_8261f83ab065c7bb551dd3f375a" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "products" ADD CONSTRAINT "FK_7d80d63e220c4511ab4b6595846" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "events" ADD CONSTRAINT "FK_ed32c7f36fa1493873a5d20351c" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "events" DROP CONSTRAINT "FK_ed32c7f36fa1493873a5d20351c"`);
    await queryRunner.query(`ALTER TABLE "products" DROP CONSTRAINT "FK_7d80d63e220c4511ab4b6595846"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "FK_8261f83ab065c7bb551dd3f375a"`);
    await queryRunner.query(`DROP INDEX "public"."events_tenant_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."events_tenant_type_created_idx"`);
    await queryRunner.query(`DROP TABLE "events"`);
    await queryRunner.query(`DROP INDEX "public"."products_tenant_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."products_store_id_key"`);
    await queryRunner.query(`DROP TABLE "products"`);
    await queryRunner.query(`DROP INDEX "public"."api_keys_merchant_idx"`);
    await queryRunner.query(`DROP INDEX "public"."api_keys_hash_key"`);
    await queryRunner.query(`DROP TABLE "api_keys"`);
    await queryRunner.query(`DROP TABLE "merchants"`);
  }
}
