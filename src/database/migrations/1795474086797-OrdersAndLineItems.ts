import { MigrationInterface, QueryRunner } from 'typeorm';

export class OrdersAndLineItems1795474086797 implements MigrationInterface {
  name = 'OrdersAndLineItems1795474086797';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "orders" ("id" text NOT NULL, "merchant_id" text NOT NULL, "mode" text NOT NULL, "store_order_id" text NOT NULL, "customer_id" text NOT NULL, "status" text NOT NULL, "placed_at" TIMESTAMP(3) WITH TIME ZONE, "metadata" jsonb NOT NULL DEFAULT '{}', "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_710e2d4957aa5878dfe94e4ac2f" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "orders_customer_created_idx" ON "orders" ("merchant_id", "mode", "customer_id", "created_at", "id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "orders_store_id_key" ON "orders" ("merchant_id", "mode", "store_order_id") `);
    await queryRunner.query(`CREATE TABLE "order_line_items" ("order_id" text NOT NULL, "store_line_item_id" text NOT NULL, "merchant_id" text NOT NULL, "mode" text NOT NULL, "product_id" text, "quantity" integer NOT NULL, "status" text NOT NULL, "skipped_reason" text, "entitlement_id" text, "position" integer NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_f8c5261d667739c6fccb68b51c4" PRIMARY KEY ("order_id", "store_line_item_id"))`);
    await queryRunner.query(`ALTER TABLE "orders" ADD CONSTRAINT "FK_2474866c8f8e9196ff227a7cbbd" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "orders" ADD CONSTRAINT "FK_772d0ce0473ac2ccfa26060dbe9" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "order_line_items" ADD CONSTRAINT "FK_297288bf81b5ab6e35c9b68eb50" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "order_line_items" ADD CONSTRAINT "FK_cfdda156311b6429147a3e16df1" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "order_line_items" DROP CONSTRAINT "FK_cfdda156311b6429147a3e16df1"`);
    await queryRunner.query(`ALTER TABLE "order_line_items" DROP CONSTRAINT "FK_297288bf81b5ab6e35c9b68eb50"`);
    await queryRunner.query(`ALTER TABLE "orders" DROP CONSTRAINT "FK_772d0ce0473ac2ccfa26060dbe9"`);
    await queryRunner.query(`ALTER TABLE "orders" DROP CONSTRAINT "FK_2474866c8f8e9196ff227a7cbbd"`);
    await queryRunner.query(`DROP TABLE "order_line_items"`);
    await queryRunner.query(`DROP INDEX "public"."orders_store_id_key"`);
    await queryRunner.query(`DROP INDEX "public"."orders_customer_created_idx"`);
    await queryRunner.query(`DROP TABLE "orders"`);
  }
}
