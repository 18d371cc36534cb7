import { MigrationInterface, QueryRunner } from 'typeorm';

export class FilesAndUsage1795353435622 implements MigrationInterface {
  name = 'FilesAndUsage1795353435622';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "bandwidth_usage" ("merchant_id" text NOT NULL, "mode" text NOT NULL, "month" text NOT NULL, "bandwidth_bytes" bigint NOT NULL DEFAULT '0', "overage_bytes" bigint NOT NULL DEFAULT '0', "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_18d075b217f5f52e18fe8f0c30d" PRIMARY KEY ("merchant_id", "mode", "month"))`);
    await queryRunner.query(`CREATE TABLE "storage_usage" ("merchant_id" text NOT NULL, "mode" text NOT NULL, "storage_used_bytes" bigint NOT NULL DEFAULT '0', "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_9e639283489d8ba794ab8fd2d08" PRIMARY KEY ("merchant_id", "mode"))`);
    await queryRunner.query(`CREATE TABLE "downloads" ("id" text NOT NULL, "merchant_id" text NOT NULL, "mode" text NOT NULL, "file_id" text NOT NULL, "entitlement_id" text NOT NULL, "customer_id" text NOT NULL, "bytes" bigint NOT NULL, "downloaded_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_60f7fa2aa9b7138737ab957a436" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "downloads_tenant_customer_idx" ON "downloads" ("merchant_id", "mode", "customer_id", "downloaded_at") `);
    await queryRunner.query(`CREATE INDEX "downloads_tenant_file_idx" ON "downloads" ("merchant_id", "mode", "file_id", "downloaded_at") `);
    await queryRunner.query(`CREATE TABLE "files" ("id" text NOT NULL, "merchant_id" text NOT NULL, "mode" text NOT NULL, "file_name" text NOT NULL, "file_size" bigint NOT NULL, "mime_type" text NOT NULL, "object_key" text NOT NULL, "upload_status" text NOT NULL DEFAULT 'PENDING', "download_count" integer NOT NULL DEFAULT '0', "product_id" text, "upload_expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "confirmed_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6c16b9093a142e0e7613b04a3d9" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "files_pending_reservation_idx" ON "files" ("merchant_id", "mode", "upload_expires_at") WHERE upload_status = 'PENDING'`);
    await queryRunner.query(`CREATE INDEX "files_tenant_created_idx" ON "files" ("merchant_id", "mode", "created_at", "id") `);
    await queryRunner.query(`ALTER TABLE "bandwidth_usage" ADD CONSTRAINT "FK_ef4085b2ee2d764ffcb4fa6d41c" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "storage_usage" ADD CONSTRAINT "FK_0144d0fd6c834a8f54547996e15" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "downloads" ADD CONSTRAINT "FK_3d3411e1631604994c89d017f96" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "files" ADD CONSTRAINT "FK_7021f6de49bd3e6e117e7a00d28" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "files" DROP CONSTRAINT "FK_7021f6de49bd3e6e117e7a00d28"`);
    await queryRunner.query(`ALTER TABLE "downloads" DROP CONSTRAINT "FK_3d3411e1631604994c89d017f96"`);
    await queryRunner.query(`ALTER TABLE "storage_usage" DROP CONSTRAINT "FK_0144d0fd6c834a8f54547996e15"`);
    await queryRunner.query(`ALTER TABLE "bandwidth_usage" DROP CONSTRAINT "FK_ef4085b2ee2d764ffcb4fa6d41c"`);
    await queryRunner.query(`DROP INDEX "public"."files_tenant_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."files_pending_reservation_idx"`);
    await queryRunner.query(`DROP TABLE "files"`);
    await queryRunner.query(`DROP INDEX "public"."downloads_tenant_file_idx"`);
    await queryRunner.query(`DROP INDEX "public"."downloads_tenant_customer_idx"`);
    await queryRunner.query(`DROP TABLE "downloads"`);
    await queryRunner.query(`DROP TABLE "storage_usage"`);
    await queryRunner.query(`DROP TABLE "bandwidth_usage"`);
  }
}
