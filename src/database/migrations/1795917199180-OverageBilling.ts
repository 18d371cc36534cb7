import { MigrationInterface, QueryRunner } from 'typeorm';

export class OverageBilling1795917199180 implements MigrationInterface {
  name = 'OverageBilling1795917199180';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "bandwidth_thresholds" ("merchant_id" text NOT NULL, "mode" text NOT NULL, "month" text NOT NULL, "threshold" smallint NOT NULL, "bandwidth_bytes" bigint NOT NULL, "included_bandwidth_bytes" bigint NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_48892d2f4ebe64c661cdc07b6e3" PRIMARY KEY ("merchant_id", "mode", "month", "threshold"))`);
    await queryRunner.query(`CREATE TABLE "usage_statements" ("id" text NOT NULL, "merchant_id" text NOT NULL, "mode" text NOT NULL, "month" text NOT NULL, "plan" text NOT NULL, "included_bandwidth_bytes" bigint NOT NULL, "bandwidth_bytes" bigint NOT NULL, "overage_bytes" bigint NOT NULL, "price_per_gib" bigint, "currency" text NOT NULL, "amount" bigint NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "reported_at" TIMESTAMP(3) WITH TIME ZONE, "report_error" text, "report_attempts" integer NOT NULL DEFAULT '0', "next_report_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "usage_statements_tenant_month_key" UNIQUE ("merchant_id", "mode", "month"), CONSTRAINT "PK_006156f456f7df6911d24204dd7" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "usage_statements_report_due_idx" ON "usage_statements" ("next_report_at") WHERE next_report_at IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "usage_statements_month_idx" ON "usage_statements" ("month", "mode") `);
    await queryRunner.query(`CREATE INDEX "usage_statements_tenant_created_idx" ON "usage_statements" ("merchant_id", "mode", "created_at", "id") `);
    await queryRunner.query(`ALTER TABLE "merchants" ADD "max_file_size_bytes" bigint`);
    await queryRunner.query(`ALTER TABLE "merchants" ADD "storage_bytes" bigint`);
    await queryRunner.query(`ALTER TABLE "merchants" ADD "bandwidth_bytes" bigint`);
    await queryRunner.query(`ALTER TABLE "merchants" ADD "overage_price_per_gib" bigint`);
    await queryRunner.query(`ALTER TABLE "merchants" ADD "stripe_customer_id" text`);
    await queryRunner.query(`ALTER TABLE "bandwidth_thresholds" ADD CONSTRAINT "FK_c54d14ab55890da527f94faebfb" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "usage_statements" ADD CONSTRAINT "FK_4d59363a1d22b53fa44b23fab6a" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "usage_statements" DROP CONSTRAINT "FK_4d59363a1d22b53fa44b23fab6a"`);
    await queryRunner.query(`ALTER TABLE "bandwidth_thresholds" DROP CONSTRAINT "FK_c54d14ab55890da527f94faebfb"`);
    await queryRunner.query(`ALTER TABLE "merchants" DROP COLUMN "stripe_customer_id"`);
    await queryRunner.query(`ALTER TABLE "merchants" DROP COLUMN "overage_price_per_gib"`);
    await queryRunner.query(`ALTER TABLE "merchants" DROP COLUMN "bandwidth_bytes"`);
    await queryRunner.query(`ALTER TABLE "merchants" DROP COLUMN "storage_bytes"`);
    await queryRunner.query(`ALTER TABLE "merchants" DROP COLUMN "max_file_size_bytes"`);
    await queryRunner.query(`DROP INDEX "public"."usage_statements_tenant_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."usage_statements_month_idx"`);
    await queryRunner.query(`DROP INDEX "public"."usage_statements_report_due_idx"`);
    await queryRunner.query(`DROP TABLE "usage_statements"`);
    await queryRunner.query(`DROP TABLE "bandwidth_thresholds"`);
  }
}
