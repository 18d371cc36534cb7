import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddSubscriptions1795473147108 implements MigrationInterface {
  name = 'AddSubscriptions1795473147108';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "subscriptions" ("id" text NOT NULL, "merchant_id" text NOT NULL, "mode" text NOT NULL, "store_subscription_id" text NOT NULL, "customer_id" text NOT NULL, "product_id" text NOT NULL, "status" text NOT NULL, "current_period_end" TIMESTAMP(3) WITH TIME ZONE, "cancel_at_period_end" boolean NOT NULL DEFAULT false, "store_updated_at" TIMESTAMP(3) WITH TIME ZONE, "entitlement_id" text, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a87248d73155605cf782be9ee5e" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "subscriptions_customer_created_idx" ON "subscriptions" ("merchant_id", "mode", "customer_id", "created_at", "id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "subscriptions_store_id_key" ON "subscriptions" ("merchant_id", "mode", "store_subscription_id") `);
    await queryRunner.query(`ALTER TABLE "subscriptions" ADD CONSTRAINT "FK_f3ae75c47587162f3a387cb2bfe" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "subscriptions" ADD CONSTRAINT "FK_98a4e1e3025f768de1493ecedec" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "subscriptions" ADD CONSTRAINT "FK_b7f78362e96be1edd6203e047f6" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "subscriptions" DROP CONSTRAINT "FK_b7f78362e96be1edd6203e047f6"`);
    await queryRunner.query(`ALTER TABLE "subscriptions" DROP CONSTRAINT "FK_98a4e1e3025f768de1493ecedec"`);
    await queryRunner.query(`ALTER TABLE "subscriptions" DROP CONSTRAINT "FK_f3ae75c47587162f3a387cb2bfe"`);
    await queryRunner.query(`DROP INDEX "public"."subscriptions_store_id_key"`);
    await queryRunner.query(`DROP INDEX "public"."subscriptions_customer_created_idx"`);
    await queryRunner.query(`DROP TABLE "subscriptions"`);
  }
}
