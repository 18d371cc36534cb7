import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * events.object_id: data.object.id as a stored generated column (PostgreSQL fills it for every
 * existing row while adding it), indexed for GET /v1/events?object_id=; one event's delivery
 * attempts (GET /v1/events/{id}/deliveries); and the orders and subscriptions lists without a
 * customer filter.
 */
export class EventObjectIdAndListIndexes1795728426160 implements MigrationInterface {
  name = 'EventObjectIdAndListIndexes1795728426160';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "events" ADD "object_id" text GENERATED ALWAYS AS (data -> 'object' ->> 'id') STORED`);
    // TypeORM makes this table only when the running DataSource's entities have a generated column;
    // a migration run without entities (the test template, a tool) must find it all the same.
    await queryRunner.query(
      `CREATE TABLE IF NOT EXISTS "typeorm_metadata" ("type" character varying NOT NULL, "database" character varying, "schema" character varying, "table" character varying, "name" character varying, "value" text)`,
    );
    await queryRunner.query(`INSERT INTO "typeorm_metadata"("database", "schema", "table", "type", "name", "value") VALUES ($1, $2, $3, $4, $5, $6)`, ["postgres","public","events","GENERATED_COLUMN","object_id","data -> 'object' ->> 'id'"]);
    await queryRunner.query(`CREATE INDEX "orders_tenant_created_idx" ON "orders" ("merchant_id", "mode", "created_at", "id") `);
    await queryRunner.query(`CREATE INDEX "subscriptions_tenant_created_idx" ON "subscriptions" ("merchant_id", "mode", "created_at", "id") `);
    await queryRunner.query(`CREATE INDEX "events_tenant_object_created_idx" ON "events" ("merchant_id", "mode", "object_id", "created_at", "id") `);
    await queryRunner.query(`CREATE INDEX "webhook_delivery_attempts_event_idx" ON "webhook_delivery_attempts" ("event_id", "attempted_at", "id") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."webhook_delivery_attempts_event_idx"`);
    await queryRunner.query(`DROP INDEX "public"."events_tenant_object_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."subscriptions_tenant_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."orders_tenant_created_idx"`);
    await queryRunner.query(`DELETE FROM "typeorm_metadata" WHERE "type" = $1 AND "name" = $2 AND "database" = $3 AND "schema" = $4 AND "table" = $5`, ["GENERATED_COLUMN","object_id","postgres","public","events"]);
    await queryRunner.query(`ALTER TABLE "events" DROP COLUMN "object_id"`);
  }
}
