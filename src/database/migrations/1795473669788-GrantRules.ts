import { MigrationInterface, QueryRunner } from 'typeorm';

export class GrantRules1795473669788 implements MigrationInterface {
  name = 'GrantRules1795473669788';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "grant_rules" ("id" text NOT NULL, "merchant_id" text NOT NULL, "mode" text NOT NULL, "trigger_product_id" text NOT NULL, "grant_product_id" text NOT NULL, "access_duration_days" integer, "enabled" boolean NOT NULL DEFAULT true, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_09fa73767fb3e2d956f16442f84" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "grant_rules_trigger_idx" ON "grant_rules" ("merchant_id", "mode", "trigger_product_id") WHERE enabled`);
    await queryRunner.query(`CREATE INDEX "grant_rules_tenant_created_idx" ON "grant_rules" ("merchant_id", "mode", "created_at", "id") `);
    await queryRunner.query(`ALTER TABLE "grant_rules" ADD CONSTRAINT "FK_497407db7a50f436dfad2088f18" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "grant_rules" ADD CONSTRAINT "FK_dfc14af56f3bb3f777a4f955430" FOREIGN KEY ("trigger_product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "grant_rules" ADD CONSTRAINT "FK_054248123d2325a8d34275a9cb9" FOREIGN KEY ("grant_product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "grant_rules" DROP CONSTRAINT "FK_054248123d2325a8d34275a9cb9"`);
    await queryRunner.query(`ALTER TABLE "grant_rules" DROP CONSTRAINT "FK_dfc14af56f3bb3f777a4f955430"`);
    await queryRunner.query(`ALTER TABLE "grant_rules" DROP CONSTRAINT "FK_497407db7a50f436dfad2088f18"`);
    await queryRunner.query(`DROP INDEX "public"."grant_rules_tenant_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."grant_rules_trigger_idx"`);
    await queryRunner.query(`DROP TABLE "grant_rules"`);
  }
}
