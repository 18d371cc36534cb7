import { MigrationInterface, QueryRunner } from 'typeorm';

export class WebhookEndpointPrivateUrlDecision1795462246317 implements MigrationInterface {
  name = 'WebhookEndpointPrivateUrlDecision1795462246317';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" ADD "private_urls_allowed" boolean NOT NULL DEFAULT false`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" DROP COLUMN "private_urls_allowed"`);
  }
}
