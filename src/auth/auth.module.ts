import { Global, Module } from '@nestjs/common';
import { AdminTokenGuard } from './admin-token.guard';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';
import { DemoMerchantSeeder } from './demo-merchant.seeder';
import { MerchantsRepository } from './merchants.repository';
import { MerchantsService } from './merchants.service';
import { ScopeGuard } from './scope.guard';

/** Merchants, API keys and the guards that read them. */
@Global()
@Module({
  providers: [
    MerchantsRepository,
    ApiKeysRepository,
    MerchantsService,
    ApiKeysService,
    ApiKeyGuard,
    ScopeGuard,
    AdminTokenGuard,
    DemoMerchantSeeder,
  ],
  exports: [MerchantsService, ApiKeysService, ApiKeyGuard, ScopeGuard, AdminTokenGuard, MerchantsRepository],
})
export class AuthModule {}
