import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * GET /v1/search and the store-id filters find products, orders and subscriptions by the start of
 * their store id (LIKE 'prefix%'), which a btree serves under any collation only with
 * text_pattern_ops (as customers_store_id_prefix_idx does for customers). TypeORM can't declare an
 * operator class, so the entities name these indexes with synchronize: false and this migration owns them.
 */
export class StoreIdPrefixIndexes1796674226136 implements MigrationInterface {
  name = 'StoreIdPrefixIndexes1796674226136';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "products_store_id_prefix_idx" ON "products" ("merchant_id", "mode", "store_product_id" text_pattern_ops) WHERE store_product_id IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "orders_store_id_prefix_idx" ON "orders" ("merchant_id", "mode", "store_order_id" text_pattern_ops)`);
    await queryRunner.query(`CREATE INDEX "subscriptions_store_id_prefix_idx" ON "subscriptions" ("merchant_id", "mode", "store_subscription_id" text_pattern_ops)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."subscriptions_store_id_prefix_idx"`);
    await queryRunner.query(`DROP INDEX "public"."orders_store_id_prefix_idx"`);
    await queryRunner.query(`DROP INDEX "public"."products_store_id_prefix_idx"`);
  }
}
