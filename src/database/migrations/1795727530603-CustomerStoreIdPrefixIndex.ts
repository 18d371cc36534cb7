import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * GET /v1/customers?search= finds store ids by prefix (LIKE 'prefix%'), which a btree serves under
 * any collation only with text_pattern_ops. TypeORM can't declare an operator class, so the
 * entity names the index with synchronize: false and this migration owns it.
 */
export class CustomerStoreIdPrefixIndex1795727530603 implements MigrationInterface {
  name = 'CustomerStoreIdPrefixIndex1795727530603';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "customers_store_id_prefix_idx" ON "customers" ("merchant_id", "mode", "store_customer_id" text_pattern_ops)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."customers_store_id_prefix_idx"`);
  }
}
