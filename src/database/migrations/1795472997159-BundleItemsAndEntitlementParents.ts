import { MigrationInterface, QueryRunner } from 'typeorm';

export class BundleItemsAndEntitlementParents1795472997159 implements MigrationInterface {
  name = 'BundleItemsAndEntitlementParents1795472997159';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "product_bundle_items" ("bundle_product_id" text NOT NULL, "included_product_id" text NOT NULL, "merchant_id" text NOT NULL, "mode" text NOT NULL, "position" integer NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_70cc2014ca8ae995465955a66ec" PRIMARY KEY ("bundle_product_id", "included_product_id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "product_bundle_items_position_key" ON "product_bundle_items" ("bundle_product_id", "position") `);
    await queryRunner.query(`CREATE INDEX "product_bundle_items_included_idx" ON "product_bundle_items" ("included_product_id") `);
    await queryRunner.query(`CREATE INDEX "entitlements_parent_idx" ON "entitlements" ("parent_entitlement_id") WHERE parent_entitlement_id IS NOT NULL`);
    await queryRunner.query(`ALTER TABLE "product_bundle_items" ADD CONSTRAINT "FK_326b7d2658246e53bf35baa283d" FOREIGN KEY ("bundle_product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "product_bundle_items" ADD CONSTRAINT "FK_a352f1e44d4ebc399ea26fc27c6" FOREIGN KEY ("included_product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "product_bundle_items" ADD CONSTRAINT "FK_95aee022db7a08e8ae2d23a6ac1" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "product_bundle_items" DROP CONSTRAINT "FK_95aee022db7a08e8ae2d23a6ac1"`);
    await queryRunner.query(`ALTER TABLE "product_bundle_items" DROP CONSTRAINT "FK_a352f1e44d4ebc399ea26fc27c6"`);
    await queryRunner.query(`ALTER TABLE "product_bundle_items" DROP CONSTRAINT "FK_326b7d2658246e53bf35baa283d"`);
    await queryRunner.query(`DROP INDEX "public"."entitlements_parent_idx"`);
    await queryRunner.query(`DROP INDEX "public"."product_bundle_items_included_idx"`);
    await queryRunner.query(`DROP INDEX "public"."product_bundle_items_position_key"`);
    await queryRunner.query(`DROP TABLE "product_bundle_items"`);
  }
}
