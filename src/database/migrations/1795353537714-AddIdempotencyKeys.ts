import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddIdempotencyKeys1795353537714 implements MigrationInterface {
  name = 'AddIdempotencyKeys1795353537714';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "idempotency_keys" ("merchant_id" text NOT NULL, "mode" text NOT NULL, "key" text NOT NULL, "request_hash" text NOT NULL, "state" text NOT NULL, "lock_token" text NOT NULL, "locked_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "response_status" integer, "response_body" jsonb, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6f35ebebf92df6ccc63ad1ca172" PRIMARY KEY ("merchant_id", "mode", "key"))`);
    await queryRunner.query(`CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" ("created_at") `);
    await queryRunner.query(`ALTER TABLE "idempotency_keys" ADD CONSTRAINT "FK_4256c61399b4846aafffbd040d8" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "idempotency_keys" DROP CONSTRAINT "FK_4256c61399b4846aafffbd040d8"`);
    await queryRunner.query(`DROP INDEX "public"."idempotency_keys_created_idx"`);
    await queryRunner.query(`DROP TABLE "idempotency_keys"`);
  }
}
