import { MigrationInterface, QueryRunner } from 'typeorm';

export class DashboardSessionsWithoutMode1795727035448 implements MigrationInterface {
  name = 'DashboardSessionsWithoutMode1795727035448';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "dashboard_sessions" DROP COLUMN "mode"`);
  }

  /** Sessions that existed come back in test mode, as a new session used to start. */
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "dashboard_sessions" ADD "mode" text NOT NULL DEFAULT 'test'`);
  }
}
