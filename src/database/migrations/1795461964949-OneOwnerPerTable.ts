import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One owner per table (issue 11) and idempotency inside the effect's transaction (DESIGN §13).
 * - Product–file links become rows of product_files, moved from products.fulfillment_config.file_ids
 *   (in their order) and from files.product_id: a file's oldest link now names its product.
 * - Storage reservations become billing's own rows (storage_reservations), moved from the PENDING
 *   files whose upload URL is still valid: billing no longer reads the files table.
 * - idempotency_keys loses its in-progress state: a key row exists only with its response.
 */
export class OneOwnerPerTable1795461964949 implements MigrationInterface {
  name = 'OneOwnerPerTable1795461964949';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Storage reservations, billing's.
    await queryRunner.query(`CREATE TABLE "storage_reservations" ("file_id" text NOT NULL, "merchant_id" text NOT NULL, "mode" text NOT NULL, "bytes" bigint NOT NULL, "expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_c1681bdb74c6f6f57729d233917" PRIMARY KEY ("file_id"))`);
    await queryRunner.query(`CREATE INDEX "storage_reservations_tenant_expires_idx" ON "storage_reservations" ("merchant_id", "mode", "expires_at") `);
    await queryRunner.query(`ALTER TABLE "storage_reservations" ADD CONSTRAINT "FK_cb1a8626142950e1542371a508d" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(
      `INSERT INTO "storage_reservations" ("file_id", "merchant_id", "mode", "bytes", "expires_at", "created_at")
       SELECT "id", "merchant_id", "mode", "file_size", "upload_expires_at", "created_at" FROM "files"
       WHERE "upload_status" = 'PENDING' AND "upload_expires_at" > now()`,
    );
    await queryRunner.query(`DROP INDEX "public"."files_pending_reservation_idx"`);

    // Product–file links, products'.
    await queryRunner.query(`CREATE TABLE "product_files" ("product_id" text NOT NULL, "file_id" text NOT NULL, "merchant_id" text NOT NULL, "mode" text NOT NULL, "position" integer NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_0a30fa26e62ccb29009c363e556" PRIMARY KEY ("product_id", "file_id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "product_files_position_key" ON "product_files" ("product_id", "position") `);
    await queryRunner.query(`CREATE INDEX "product_files_file_idx" ON "product_files" ("merchant_id", "mode", "file_id", "created_at") `);
    await queryRunner.query(`ALTER TABLE "product_files" ADD CONSTRAINT "FK_d8a99936d05e5cc4688b828059d" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "product_files" ADD CONSTRAINT "FK_59de9a6d2f3839532b438fffc9b" FOREIGN KEY ("file_id") REFERENCES "files"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "product_files" ADD CONSTRAINT "FK_9b0ffff817b4ffc025e78d967a8" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    // Every id in a product's file_ids that names a file of its tenant, in order (a repeated id
    // keeps its first place). The link to the product upload-url named (files.product_id) dates
    // from the file's creation, so that product stays the file's product_id.
    await queryRunner.query(
      `INSERT INTO "product_files" ("product_id", "file_id", "merchant_id", "mode", "position", "created_at")
       SELECT DISTINCT ON (p."id", f."id") p."id", f."id", p."merchant_id", p."mode", (link.ordinality - 1)::int,
              CASE WHEN f."product_id" = p."id" THEN f."created_at" ELSE GREATEST(p."updated_at", f."created_at") END
       FROM "products" p
       CROSS JOIN LATERAL jsonb_array_elements_text(COALESCE(p."fulfillment_config"->'file_ids', '[]'::jsonb)) WITH ORDINALITY AS link("file_id", ordinality)
       JOIN "files" f ON f."id" = link."file_id" AND f."merchant_id" = p."merchant_id" AND f."mode" = p."mode"
       ORDER BY p."id", f."id", link.ordinality`,
    );
    await queryRunner.query(`UPDATE "products" SET "fulfillment_config" = "fulfillment_config" - 'file_ids' WHERE "fulfillment_config" ? 'file_ids'`);
    await queryRunner.query(`ALTER TABLE "files" DROP COLUMN "product_id"`);

    // Idempotency keys without an in-progress state: claims that never completed held no response.
    await queryRunner.query(`DELETE FROM "idempotency_keys" WHERE "state" <> 'completed' OR "response_status" IS NULL`);
    await queryRunner.query(`ALTER TABLE "idempotency_keys" DROP COLUMN "state"`);
    await queryRunner.query(`ALTER TABLE "idempotency_keys" DROP COLUMN "lock_token"`);
    await queryRunner.query(`ALTER TABLE "idempotency_keys" DROP COLUMN "locked_at"`);
    await queryRunner.query(`ALTER TABLE "idempotency_keys" ALTER COLUMN "response_status" SET NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "idempotency_keys" ALTER COLUMN "response_status" DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE "idempotency_keys" ADD "locked_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now()`);
    await queryRunner.query(`ALTER TABLE "idempotency_keys" ALTER COLUMN "locked_at" DROP DEFAULT`);
    await queryRunner.query(`ALTER TABLE "idempotency_keys" ADD "lock_token" text NOT NULL DEFAULT md5(random()::text)`);
    await queryRunner.query(`ALTER TABLE "idempotency_keys" ALTER COLUMN "lock_token" DROP DEFAULT`);
    await queryRunner.query(`ALTER TABLE "idempotency_keys" ADD "state" text NOT NULL DEFAULT 'completed'`);
    await queryRunner.query(`ALTER TABLE "idempotency_keys" ALTER COLUMN "state" DROP DEFAULT`);

    await queryRunner.query(`ALTER TABLE "files" ADD "product_id" text`);
    await queryRunner.query(
      `UPDATE "files" f SET "product_id" = first_link."product_id"
       FROM (SELECT DISTINCT ON ("file_id") "file_id", "product_id" FROM "product_files" ORDER BY "file_id", "created_at", "product_id") first_link
       WHERE f."id" = first_link."file_id"`,
    );
    await queryRunner.query(
      `UPDATE "products" p SET "fulfillment_config" = p."fulfillment_config" || jsonb_build_object('file_ids', COALESCE(
         (SELECT jsonb_agg(l."file_id" ORDER BY l."position") FROM "product_files" l WHERE l."product_id" = p."id"), '[]'::jsonb))`,
    );
    await queryRunner.query(`ALTER TABLE "product_files" DROP CONSTRAINT "FK_9b0ffff817b4ffc025e78d967a8"`);
    await queryRunner.query(`ALTER TABLE "product_files" DROP CONSTRAINT "FK_59de9a6d2f3839532b438fffc9b"`);
    await queryRunner.query(`ALTER TABLE "product_files" DROP CONSTRAINT "FK_d8a99936d05e5cc4688b828059d"`);
    await queryRunner.query(`DROP INDEX "public"."product_files_file_idx"`);
    await queryRunner.query(`DROP INDEX "public"."product_files_position_key"`);
    await queryRunner.query(`DROP TABLE "product_files"`);

    await queryRunner.query(`CREATE INDEX "files_pending_reservation_idx" ON "files" ("merchant_id", "mode", "upload_expires_at") WHERE (upload_status = 'PENDING'::text)`);
    await queryRunner.query(`ALTER TABLE "storage_reservations" DROP CONSTRAINT "FK_cb1a8626142950e1542371a508d"`);
    await queryRunner.query(`DROP INDEX "public"."storage_reservations_tenant_expires_idx"`);
    await queryRunner.query(`DROP TABLE "storage_reservations"`);
  }
}
