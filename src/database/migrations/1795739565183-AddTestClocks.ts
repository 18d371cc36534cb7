import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddTestClocks1795739565183 implements MigrationInterface {
  name = 'AddTestClocks1795739565183';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "test_clocks" ("id" text NOT NULL, "merchant_id" text NOT NULL, "mode" text NOT NULL, "name" text, "frozen_time" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_556e1b48b7b64165e8e234c9970" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "test_clocks_tenant_created_idx" ON "test_clocks" ("merchant_id", "mode", "created_at", "id") `);
    await queryRunner.query(`ALTER TABLE "customers" ADD "test_clock_id" text`);
    await queryRunner.query(`ALTER TABLE "entitlements" ADD "test_clock_id" text`);
    await queryRunner.query(`ALTER TABLE "entitlement_imports" ADD "test_clock_id" text`);
    await queryRunner.query(`CREATE INDEX "customers_test_clock_idx" ON "customers" ("test_clock_id") WHERE test_clock_id IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "entitlements_test_clock_idx" ON "entitlements" ("test_clock_id") WHERE test_clock_id IS NOT NULL AND status = 'active'`);
    await queryRunner.query(`ALTER TABLE "test_clocks" ADD CONSTRAINT "FK_0db287d08bb63bb7d62f984a881" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "customers" ADD CONSTRAINT "FK_ed99c6e680bfd72dfc650b104e3" FOREIGN KEY ("test_clock_id") REFERENCES "test_clocks"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "entitlement_imports" ADD CONSTRAINT "FK_0c317d1c171f037f8615ff631eb" FOREIGN KEY ("test_clock_id") REFERENCES "test_clocks"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "entitlement_imports" DROP CONSTRAINT "FK_0c317d1c171f037f8615ff631eb"`);
    await queryRunner.query(`ALTER TABLE "customers" DROP CONSTRAINT "FK_ed99c6e680bfd72dfc650b104e3"`);
    await queryRunner.query(`ALTER TABLE "test_clocks" DROP CONSTRAINT "FK_0db287d08bb63bb7d62f984a881"`);
    await queryRunner.query(`DROP INDEX "public"."entitlements_test_clock_idx"`);
    await queryRunner.query(`DROP INDEX "public"."customers_test_clock_idx"`);
    await queryRunner.query(`ALTER TABLE "entitlement_imports" DROP COLUMN "test_clock_id"`);
    await queryRunner.query(`ALTER TABLE "entitlements" DROP COLUMN "test_clock_id"`);
    await queryRunner.query(`ALTER TABLE "customers" DROP COLUMN "test_clock_id"`);
    await queryRunner.query(`DROP INDEX "public"."test_clocks_tenant_created_idx"`);
    await queryRunner.query(`DROP TABLE "test_clocks"`);
  }
}
