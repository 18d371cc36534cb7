import { MigrationInterface, QueryRunner } from 'typeorm';

export class DashboardUserLastSignIn1795732107119 implements MigrationInterface {
  name = 'DashboardUserLastSignIn1795732107119';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "dashboard_users" ADD "last_signed_in_at" TIMESTAMP(3) WITH TIME ZONE`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "dashboard_users" DROP COLUMN "last_signed_in_at"`);
  }
}
