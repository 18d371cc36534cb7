import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddLicenseKeys1795917273272 implements MigrationInterface {
  name = 'AddLicenseKeys1795917273272';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "license_keys" ("id" text NOT NULL, "merchant_id" text NOT NULL, "mode" text NOT NULL, "entitlement_id" text NOT NULL, "customer_id" text NOT NULL, "product_id" text NOT NULL, "test_clock_id" text, "key_hash" text NOT NULL, "key_encrypted" text NOT NULL, "activation_limit" integer, "activation_ttl_seconds" integer, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b2711aaaf68d41a34461591519f" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "license_keys_entitlement_key" ON "license_keys" ("entitlement_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "license_keys_hash_key" ON "license_keys" ("key_hash") `);
    await queryRunner.query(`CREATE INDEX "license_keys_customer_idx" ON "license_keys" ("merchant_id", "mode", "customer_id") `);
    await queryRunner.query(`CREATE INDEX "license_keys_tenant_created_idx" ON "license_keys" ("merchant_id", "mode", "created_at", "id") `);
    await queryRunner.query(`CREATE TABLE "license_activations" ("id" text NOT NULL, "merchant_id" text NOT NULL, "mode" text NOT NULL, "license_key_id" text NOT NULL, "fingerprint" text NOT NULL, "name" text, "metadata" jsonb NOT NULL DEFAULT '{}', "test_clock_id" text, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "last_seen_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_1c297724cc03ac0ed760e3f8219" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "license_activations_seen_idx" ON "license_activations" ("last_seen_at") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "license_activations_fingerprint_key" ON "license_activations" ("license_key_id", "fingerprint") `);
    await queryRunner.query(`ALTER TABLE "products" ADD "license" jsonb`);
    await queryRunner.query(`ALTER TABLE "license_keys" ADD CONSTRAINT "FK_7f6d0a8f4231e053e3b91ddcee8" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "license_keys" ADD CONSTRAINT "FK_5332a8e5f913730dbb1bce49e0b" FOREIGN KEY ("entitlement_id") REFERENCES "entitlements"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "license_activations" ADD CONSTRAINT "FK_7c8bbe58002a23e2a8147c26d4f" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "license_activations" ADD CONSTRAINT "FK_0d2c2ef44b59f9a9b4c43ee975d" FOREIGN KEY ("license_key_id") REFERENCES "license_keys"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "license_activations" DROP CONSTRAINT "FK_0d2c2ef44b59f9a9b4c43ee975d"`);
    await queryRunner.query(`ALTER TABLE "license_activations" DROP CONSTRAINT "FK_7c8bbe58002a23e2a8147c26d4f"`);
    await queryRunner.query(`ALTER TABLE "license_keys" DROP CONSTRAINT "FK_5332a8e5f913730dbb1bce49e0b"`);
    await queryRunner.query(`ALTER TABLE "license_keys" DROP CONSTRAINT "FK_7f6d0a8f4231e053e3b91ddcee8"`);
    await queryRunner.query(`ALTER TABLE "products" DROP COLUMN "license"`);
    await queryRunner.query(`DROP INDEX "public"."license_activations_fingerprint_key"`);
    await queryRunner.query(`DROP INDEX "public"."license_activations_seen_idx"`);
    await queryRunner.query(`DROP TABLE "license_activations"`);
    await queryRunner.query(`DROP INDEX "public"."license_keys_tenant_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."license_keys_customer_idx"`);
    await queryRunner.query(`DROP INDEX "public"."license_keys_hash_key"`);
    await queryRunner.query(`DROP INDEX "public"."license_keys_entitlement_key"`);
    await queryRunner.query(`DROP TABLE "license_keys"`);
  }
}
