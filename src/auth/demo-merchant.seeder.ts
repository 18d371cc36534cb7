import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { ApiKeysService } from './api-keys.service';
import { MerchantsRepository } from './merchants.repository';
import { MerchantsService } from './merchants.service';

/**
 * First start of an empty embedded database: a demo merchant and one test key with every scope,
 * printed once so `npm start` is usable at once. Never with DATABASE_URL set.
 */
@Injectable()
export class DemoMerchantSeeder implements OnApplicationBootstrap {
  constructor(
    private readonly config: AppConfig,
    private readonly merchantsRepository: MerchantsRepository,
    private readonly merchants: MerchantsService,
    private readonly apiKeys: ApiKeysService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.embeddedDatabase || this.config.skipDemoSeed) return;
    if ((await this.merchantsRepository.count()) > 0) return;
    const merchant = await this.merchants.create('Demo merchant', 'free');
    const key = await this.apiKeys.create(merchant.id, { mode: 'test', scopes: ['*'], name: 'demo key' });
    process.stdout.write(
      [
        '',
        '  Demo merchant created (plan free) in the embedded database.',
        `  merchant id: ${merchant.id}`,
        `  test API key (every scope; shown only this once): ${key.key}`,
        `  try: curl -H "Authorization: Bearer ${key.key}" http://localhost:${this.config.port}/v1/products`,
        `  more keys: npm run cli -- api-keys:create --merchant ${merchant.id} --mode test --scopes '*'`,
        '',
        '',
      ].join('\n'),
    );
  }
}
