import { MigrationInterface, QueryRunner } from 'typeorm';

export class IdempotencyResponseBodyJson1795353865020 implements MigrationInterface {
  name = 'IdempotencyResponseBodyJson1795353865020';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "idempotency_keys" DROP COLUMN "response_body"`);
    await queryRunner.query(`ALTER TABLE "idempotency_keys" ADD "response_body" json`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "idempotency_keys" DROP COLUMN "response_body"`);
    await queryRunner.query(`ALTER TABLE "idempotency_keys" ADD "response_body" jsonb`);
  }
}
