import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddCustomersAndEntitlements1795353422441 implements MigrationInterface {
  name = 'AddCustomersAndEntitlements1795353422441';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "customers" ("id" text NOT NULL, "merchant_id" text NOT NULL, "mode" text NOT NULL, "store_customer_id" text NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_133ec679a801fab5e070f73d3ea" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "customers_store_id_key" ON "customers" ("merchant_id", "mode", "store_customer_id") `);
    await queryRunner.query(`CREATE TABLE "entitlements" ("id" text NOT NULL, "merchant_id" text NOT NULL, "mode" text NOT NULL, "customer_id" text NOT NULL, "product_id" text NOT NULL, "status" text NOT NULL, "granted_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP(3) WITH TIME ZONE, "revoked_at" TIMESTAMP(3) WITH TIME ZONE, "revocation_reason" text, "suspended_at" TIMESTAMP(3) WITH TIME ZONE, "suspension_reason" text, "usage_count" integer NOT NULL DEFAULT '0', "usage_limit" integer, "source" text NOT NULL, "store_order_id" text, "store_line_item_id" text, "parent_entitlement_id" text, "metadata" jsonb NOT NULL DEFAULT '{}', "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6a45cb6f5747d49365a879bffde" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "entitlements_sweep_usage_idx" ON "entitlements" ("id") WHERE status = 'active' AND usage_limit IS NOT NULL AND usage_count >= usage_limit`);
    await queryRunner.query(`CREATE INDEX "entitlements_sweep_expires_idx" ON "entitlements" ("expires_at") WHERE status = 'active' AND expires_at IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "entitlements_product_created_idx" ON "entitlements" ("merchant_id", "mode", "product_id", "created_at", "id") `);
    await queryRunner.query(`CREATE INDEX "entitlements_customer_created_idx" ON "entitlements" ("merchant_id", "mode", "customer_id", "created_at", "id") `);
    await queryRunner.query(`CREATE INDEX "entitlements_tenant_created_idx" ON "entitlements" ("merchant_id", "mode", "created_at", "id") `);
    await queryRunner.query(`CREATE INDEX "entitlements_check_idx" ON "entitlements" ("merchant_id", "mode", "customer_id", "product_id") `);
    await queryRunner.query(`ALTER TABLE "customers" ADD CONSTRAINT "FK_c73a42116fe791faa952b71e9dd" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "entitlements" ADD CONSTRAINT "FK_da459242e2b1e70b179d66f0863" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "entitlements" ADD CONSTRAINT "FK_d5fdb0292135d033c4ecd3c6714" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "entitlements" ADD CONSTRAINT "FK_d5244314b41413a0527e9f4ddd5" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "entitlements" DROP CONSTRAINT "FK_d5244314b41413a0527e9f4ddd5"`);
    await queryRunner.query(`ALTER TABLE "entitlements" DROP CONSTRAINT "FK_d5fdb0292135d033c4ecd3c6714"`);
    await queryRunner.query(`ALTER TABLE "entitlements" DROP CONSTRAINT "FK_da459242e2b1e70b179d66f0863"`);
    await queryRunner.query(`ALTER TABLE "customers" DROP CONSTRAINT "FK_c73a42116fe791faa952b71e9dd"`);
    await queryRunner.query(`DROP INDEX "public"."entitlements_check_idx"`);
    await queryRunner.query(`DROP INDEX "public"."entitlements_tenant_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."entitlements_customer_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."entitlements_product_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."entitlements_sweep_expires_idx"`);
    await queryRunner.query(`DROP INDEX "public"."entitlements_sweep_usage_idx"`);
    await queryRunner.query(`DROP TABLE "entitlements"`);
    await queryRunner.query(`DROP INDEX "public"."customers_store_id_key"`);
    await queryRunner.query(`DROP TABLE "customers"`);
  }
}
