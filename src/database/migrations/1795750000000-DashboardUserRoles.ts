import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * DESIGN §11 roles: every dashboard user gets a role and a test-mode limit. Users that exist
 * before roles become owners (they could do everything); the column has no default after, so
 * every new user is given one explicitly (owner for a merchant's first, viewer after).
 */
export class DashboardUserRoles1795750000000 implements MigrationInterface {
  name = 'DashboardUserRoles1795750000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "dashboard_users" ADD "role" text NOT NULL DEFAULT 'owner'`);
    await queryRunner.query(`ALTER TABLE "dashboard_users" ALTER COLUMN "role" DROP DEFAULT`);
    await queryRunner.query(`ALTER TABLE "dashboard_users" ADD "test_only" boolean NOT NULL DEFAULT false`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "dashboard_users" DROP COLUMN "test_only"`);
    await queryRunner.query(`ALTER TABLE "dashboard_users" DROP COLUMN "role"`);
  }
}
