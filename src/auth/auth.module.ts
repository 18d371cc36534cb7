import { Global, Module } from '@nestjs/common';
import { UnitOfWork } from '../database/unit-of-work';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';
import { CREDENTIAL_CHECKSUM_SECRET, CredentialChecksum } from './credential-checksum';
import { DemoMerchantSeeder } from './demo-merchant.seeder';
import { GuessingRules } from './guessing-rules';
import { MerchantsRepository } from './merchants.repository';
import { MerchantsService } from './merchants.service';
import { RequestAuthenticator } from './request-authenticator';
import { ServerSecretsRepository } from './server-secrets.repository';
import { ServerSecrets } from './server-secrets.service';

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
    GuessingRules,
    ServerSecretsRepository,
    ServerSecrets,
    {
      provide: CredentialChecksum,
      inject: [ServerSecretsRepository, UnitOfWork],
      useFactory: async (secrets: ServerSecretsRepository, unitOfWork: UnitOfWork) =>
        new CredentialChecksum(await unitOfWork.run((tx) => secrets.obtain(tx, CREDENTIAL_CHECKSUM_SECRET))),
    },
  ],
  exports: [MerchantsService, ApiKeysService, RequestAuthenticator, GuessingRules, CredentialChecksum, ServerSecrets],
})
export class AuthModule {}
