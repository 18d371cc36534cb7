import { MigrationInterface, QueryRunner } from 'typeorm';

export class DashboardUsersAndSessions1795472890463 implements MigrationInterface {
  name = 'DashboardUsersAndSessions1795472890463';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "dashboard_users" ("id" text NOT NULL, "merchant_id" text NOT NULL, "email" text NOT NULL, "password_hash" text, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a34bdf209c625b674f61a9a60dc" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "dashboard_users_email_key" ON "dashboard_users" ("email") `);
    await queryRunner.query(`CREATE TABLE "dashboard_sessions" ("id" text NOT NULL, "token_hash" text NOT NULL, "user_id" text NOT NULL, "merchant_id" text NOT NULL, "mode" text NOT NULL, "csrf_token" text NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "last_seen_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "ended_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_09c60e2bedb298d55d575d12503" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "dashboard_sessions_token_hash_key" ON "dashboard_sessions" ("token_hash") `);
    await queryRunner.query(`CREATE INDEX "dashboard_sessions_user_idx" ON "dashboard_sessions" ("user_id") `);
    await queryRunner.query(`CREATE TABLE "dashboard_setup_links" ("token_hash" text NOT NULL, "user_id" text NOT NULL, "expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_290b506acdbf1ad495663575010" PRIMARY KEY ("token_hash"))`);
    await queryRunner.query(`CREATE INDEX "dashboard_setup_links_user_idx" ON "dashboard_setup_links" ("user_id") `);
    await queryRunner.query(`ALTER TABLE "dashboard_users" ADD CONSTRAINT "FK_514f6425a5b0689fcffbae56333" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "dashboard_sessions" ADD CONSTRAINT "FK_6b6e025460444b5f7885bfb0d43" FOREIGN KEY ("user_id") REFERENCES "dashboard_users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "dashboard_setup_links" ADD CONSTRAINT "FK_a276562e31ac343e24dd4fa2efd" FOREIGN KEY ("user_id") REFERENCES "dashboard_users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "dashboard_setup_links" DROP CONSTRAINT "FK_a276562e31ac343e24dd4fa2efd"`);
    await queryRunner.query(`ALTER TABLE "dashboard_sessions" DROP CONSTRAINT "FK_6b6e025460444b5f7885bfb0d43"`);
    await queryRunner.query(`ALTER TABLE "dashboard_users" DROP CONSTRAINT "FK_514f6425a5b0689fcffbae56333"`);
    await queryRunner.query(`DROP INDEX "public"."dashboard_setup_links_user_idx"`);
    await queryRunner.query(`DROP TABLE "dashboard_setup_links"`);
    await queryRunner.query(`DROP INDEX "public"."dashboard_sessions_user_idx"`);
    await queryRunner.query(`DROP INDEX "public"."dashboard_sessions_token_hash_key"`);
    await queryRunner.query(`DROP TABLE "dashboard_sessions"`);
    await queryRunner.query(`DROP INDEX "public"."dashboard_users_email_key"`);
    await queryRunner.query(`DROP TABLE "dashboard_users"`);
  }
}
