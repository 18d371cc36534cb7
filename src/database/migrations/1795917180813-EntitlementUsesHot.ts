import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 39: a use (a download, POST …/use) changes usage_count and updated_at only, and no index
 * names either, so PostgreSQL can write it as a HOT update (no new entry in any of the table's
 * indexes). Until now the sweeper's partial index had `usage_count >= usage_limit` in its
 * predicate, which made every use a non-HOT update. Now:
 * - `uses_ran_out`, a stored generated column (usage_limit IS NOT NULL AND usage_count >=
 *   usage_limit: the rule of src/entitlements/effective-status.ts), is what the sweeper's index
 *   filters on; it changes once, on the use that reaches the limit;
 * - fillfactor 90 leaves a tenth of each page free for the new versions of its rows (measured in
 *   bench/README.md, "HOT updates");
 * - autovacuum_vacuum_scale_factor 0.05 instead of the default 0.2 (docs/operations.md,
 *   "Autovacuum").
 * Adding the stored column rewrites the table (ACCESS EXCLUSIVE for the rewrite: docs/operations.md);
 * the fillfactor is set first, so the rewrite already packs pages at 90 %. TypeORM records a
 * generated column's expression in its typeorm_metadata table (for its schema diff); the row is
 * written for the database it runs in (TypeORM's generator would have written the generating one's name).
 */
export class EntitlementUsesHot1795917180813 implements MigrationInterface {
  name = 'EntitlementUsesHot1795917180813';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "entitlements" SET (fillfactor = 90, autovacuum_vacuum_scale_factor = 0.05)`);
    await queryRunner.query(`DROP INDEX "public"."entitlements_sweep_usage_idx"`);
    await queryRunner.query(`ALTER TABLE "entitlements" ADD "uses_ran_out" boolean GENERATED ALWAYS AS (usage_limit IS NOT NULL AND usage_count >= usage_limit) STORED NOT NULL`);
    await queryRunner.query(
      `INSERT INTO "typeorm_metadata"("database", "schema", "table", "type", "name", "value") VALUES (current_database(), current_schema(), 'entitlements', 'GENERATED_COLUMN', 'uses_ran_out', $1)`,
      ['usage_limit IS NOT NULL AND usage_count >= usage_limit'],
    );
    await queryRunner.query(`CREATE INDEX "entitlements_sweep_usage_idx" ON "entitlements" ("id") WHERE status = 'active' AND uses_ran_out`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."entitlements_sweep_usage_idx"`);
    await queryRunner.query(
      `DELETE FROM "typeorm_metadata" WHERE "type" = 'GENERATED_COLUMN' AND "name" = 'uses_ran_out' AND "database" = current_database() AND "schema" = current_schema() AND "table" = 'entitlements'`,
    );
    await queryRunner.query(`ALTER TABLE "entitlements" DROP COLUMN "uses_ran_out"`);
    await queryRunner.query(`CREATE INDEX "entitlements_sweep_usage_idx" ON "entitlements" ("id") WHERE status = 'active' AND usage_limit IS NOT NULL AND usage_count >= usage_limit`);
    await queryRunner.query(`ALTER TABLE "entitlements" RESET (fillfactor, autovacuum_vacuum_scale_factor)`);
  }
}
