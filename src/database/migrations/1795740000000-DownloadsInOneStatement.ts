import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `refuse_statement(reason)`: raises SQLSTATE EH001 with the reason as its message. A combined
 * write (src/database/combined-statement.ts) calls it when one of its parts yields no row, so the
 * whole statement rolls back: how a download's use, record, bandwidth and events commit in one
 * statement and a refused one leaves nothing.
 */
export class DownloadsInOneStatement1795740000000 implements MigrationInterface {
  name = 'DownloadsInOneStatement1795740000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE FUNCTION refuse_statement(reason text) RETURNS boolean LANGUAGE plpgsql AS $body$ BEGIN RAISE EXCEPTION USING ERRCODE = 'EH001', MESSAGE = reason; END $body$`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION refuse_statement(text)`);
  }
}
