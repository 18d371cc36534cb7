import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddEntitlementImports1795475938186 implements MigrationInterface {
  name = 'AddEntitlementImports1795475938186';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "entitlement_imports" ("id" text NOT NULL, "merchant_id" text NOT NULL, "mode" text NOT NULL, "status" text NOT NULL, "total_rows" integer NOT NULL, "processed_rows" integer NOT NULL DEFAULT '0', "granted" integer NOT NULL DEFAULT '0', "skipped" integer NOT NULL DEFAULT '0', "failed" integer NOT NULL DEFAULT '0', "errors" jsonb NOT NULL DEFAULT '[]', "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "completed_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_c4a5cae2361f915fc1f915c5ccd" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "entitlement_imports_unfinished_idx" ON "entitlement_imports" ("updated_at", "id") WHERE status IN ('queued', 'running')`);
    await queryRunner.query(`CREATE INDEX "entitlement_imports_tenant_created_idx" ON "entitlement_imports" ("merchant_id", "mode", "created_at", "id") `);
    await queryRunner.query(`CREATE TABLE "import_rows" ("import_id" text NOT NULL, "row_number" integer NOT NULL, "merchant_id" text NOT NULL, "mode" text NOT NULL, "data" jsonb NOT NULL, "status" text NOT NULL DEFAULT 'pending', "entitlement_id" text, "error_code" text, "error_message" text, CONSTRAINT "PK_91bb5e34a40913867fcc14d42bc" PRIMARY KEY ("import_id", "row_number"))`);
    await queryRunner.query(`CREATE INDEX "import_rows_pending_idx" ON "import_rows" ("import_id", "row_number") WHERE status = 'pending'`);
    await queryRunner.query(`ALTER TABLE "entitlement_imports" ADD CONSTRAINT "FK_d32d74871c1707d48566181b358" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "import_rows" ADD CONSTRAINT "FK_c175270322bf4c2e99418c2aa9f" FOREIGN KEY ("import_id") REFERENCES "entitlement_imports"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "import_rows" ADD CONSTRAINT "FK_ba50856b087349d51458a0fe744" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "import_rows" DROP CONSTRAINT "FK_ba50856b087349d51458a0fe744"`);
    await queryRunner.query(`ALTER TABLE "import_rows" DROP CONSTRAINT "FK_c175270322bf4c2e99418c2aa9f"`);
    await queryRunner.query(`ALTER TABLE "entitlement_imports" DROP CONSTRAINT "FK_d32d74871c1707d48566181b358"`);
    await queryRunner.query(`DROP INDEX "public"."import_rows_pending_idx"`);
    await queryRunner.query(`DROP TABLE "import_rows"`);
    await queryRunner.query(`DROP INDEX "public"."entitlement_imports_tenant_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."entitlement_imports_unfinished_idx"`);
    await queryRunner.query(`DROP TABLE "entitlement_imports"`);
  }
}
