import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log (DESIGN §11): owned by src/audit. Append-only in the database too: an UPDATE of a
 * row raises (only AUDIT_RETENTION's DELETE, and a merchant's deletion, remove rows).
 */
export class AuditLog1796674226135 implements MigrationInterface {
  name = 'AuditLog1796674226135';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "audit_log" ("id" text NOT NULL, "merchant_id" text NOT NULL, "mode" text, "actor_type" text NOT NULL, "actor_id" text NOT NULL, "actor_label" text NOT NULL, "action" text NOT NULL, "object_type" text NOT NULL, "object_id" text, "request_id" text, "client_address" text, "status" text NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_07fefa57f7f5ab8fc3f52b3ed0b" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "audit_log_created_idx" ON "audit_log" ("created_at") `);
    await queryRunner.query(`CREATE INDEX "audit_log_merchant_object_created_idx" ON "audit_log" ("merchant_id", "object_id", "created_at", "id") `);
    await queryRunner.query(`CREATE INDEX "audit_log_merchant_actor_created_idx" ON "audit_log" ("merchant_id", "actor_id", "created_at", "id") `);
    await queryRunner.query(`CREATE INDEX "audit_log_merchant_created_idx" ON "audit_log" ("merchant_id", "created_at", "id") `);
    await queryRunner.query(`ALTER TABLE "audit_log" ADD CONSTRAINT "FK_fa787773fbfe2d5fb1b73bdcdfe" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit_log is append-only'; END $$`);
    await queryRunner.query(`CREATE TRIGGER audit_log_append_only BEFORE UPDATE ON "audit_log" FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER audit_log_append_only ON "audit_log"`);
    await queryRunner.query(`DROP FUNCTION audit_log_append_only()`);
    await queryRunner.query(`ALTER TABLE "audit_log" DROP CONSTRAINT "FK_fa787773fbfe2d5fb1b73bdcdfe"`);
    await queryRunner.query(`DROP INDEX "public"."audit_log_merchant_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."audit_log_merchant_actor_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."audit_log_merchant_object_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."audit_log_created_idx"`);
    await queryRunner.query(`DROP TABLE "audit_log"`);
  }
}
