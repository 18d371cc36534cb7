import { MigrationInterface, QueryRunner } from 'typeorm';

export class ClientAddressAndCredentialChecksums1795727266527 implements MigrationInterface {
  name = 'ClientAddressAndCredentialChecksums1795727266527';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "server_secrets" ("name" text NOT NULL, "value" text NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_776280895f188bb4dd7028779cd" PRIMARY KEY ("name"))`);
    await queryRunner.query(`ALTER TABLE "api_keys" ADD "checksummed" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "dashboard_sessions" ADD "checksummed" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "downloads" ADD "client_address" text`);
    await queryRunner.query(`CREATE INDEX "api_keys_legacy_idx" ON "api_keys" ("key_hash") WHERE checksummed = false AND revoked_at IS NULL`);
    await queryRunner.query(`CREATE INDEX "dashboard_sessions_legacy_idx" ON "dashboard_sessions" ("token_hash") WHERE checksummed = false AND ended_at IS NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."dashboard_sessions_legacy_idx"`);
    await queryRunner.query(`DROP INDEX "public"."api_keys_legacy_idx"`);
    await queryRunner.query(`ALTER TABLE "downloads" DROP COLUMN "client_address"`);
    await queryRunner.query(`ALTER TABLE "dashboard_sessions" DROP COLUMN "checksummed"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "checksummed"`);
    await queryRunner.query(`DROP TABLE "server_secrets"`);
  }
}
