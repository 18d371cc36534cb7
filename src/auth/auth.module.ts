import { Global, Module } from '@nestjs/common';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';
import { DemoMerchantSeeder } from './demo-merchant.seeder';
import { MerchantsRepository } from './merchants.repository';
import { MerchantsService } from './merchants.service';
import { RequestAuthenticator } from './request-authenticator';

/** Merchants and API keys; the guards that read them are registered by AppModule (APP_GUARD). */
@Global()
@Module({
  providers: [
    MerchantsRepository,
    ApiKeysRepository,
    MerchantsService,
    ApiKeysService,
    DemoMerchantSeeder,
    RequestAuthenticator,
  ],
  exports: [MerchantsService, ApiKeysService, RequestAuthenticator],
})
export class AuthModule {}
