import { MigrationInterface, QueryRunner } from 'typeorm';

export class PruneIndexes1795728914022 implements MigrationInterface {
  name = 'PruneIndexes1795728914022';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "dashboard_sessions_last_seen_idx" ON "dashboard_sessions" ("last_seen_at") `);
    await queryRunner.query(`CREATE INDEX "dashboard_sessions_ended_idx" ON "dashboard_sessions" ("ended_at") WHERE ended_at IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "dashboard_setup_links_expires_idx" ON "dashboard_setup_links" ("expires_at") `);
    await queryRunner.query(`CREATE INDEX "dashboard_setup_links_used_idx" ON "dashboard_setup_links" ("used_at") WHERE used_at IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "events_created_idx" ON "events" ("created_at") `);
    await queryRunner.query(`CREATE INDEX "webhook_delivery_attempts_attempted_idx" ON "webhook_delivery_attempts" ("attempted_at") `);
    await queryRunner.query(`CREATE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries" ("event_id") `);
    await queryRunner.query(`CREATE INDEX "webhook_deliveries_pending_event_idx" ON "webhook_deliveries" ("event_id") WHERE status = 'pending'`);
    await queryRunner.query(`CREATE INDEX "webhook_deliveries_settled_created_idx" ON "webhook_deliveries" ("created_at") WHERE status <> 'pending'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."webhook_deliveries_settled_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."webhook_deliveries_pending_event_idx"`);
    await queryRunner.query(`DROP INDEX "public"."webhook_deliveries_event_idx"`);
    await queryRunner.query(`DROP INDEX "public"."webhook_delivery_attempts_attempted_idx"`);
    await queryRunner.query(`DROP INDEX "public"."events_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."dashboard_setup_links_used_idx"`);
    await queryRunner.query(`DROP INDEX "public"."dashboard_setup_links_expires_idx"`);
    await queryRunner.query(`DROP INDEX "public"."dashboard_sessions_ended_idx"`);
    await queryRunner.query(`DROP INDEX "public"."dashboard_sessions_last_seen_idx"`);
  }
}
