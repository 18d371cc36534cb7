import { Module } from '@nestjs/common';
import { ServerSecrets } from '../auth/server-secrets.service';
import { ClockModule } from '../clock/clock.module';
import { LicenseActivationSweeper } from './license-activation.sweeper';
import { LicenseActivationsRepository } from './license-activations.repository';
import { LICENSE_KEY_CHECKSUM_SECRET, LICENSE_KEY_ENCRYPTION_SECRET, LicenseKeyCipher } from './license-key-cipher';
import { LicenseKeysRepository } from './license-keys.repository';
import { LicenseRecordsService } from './license-records.service';
import { UnknownLicenseKeys } from './unknown-license-keys';

/**
 * License keys and activations (DESIGN §18): the tables, issuing keys in a grant's transaction
 * and the floating-seat sweep. A module of its own so that the entitlements module (which issues
 * keys) can depend on it while the license routes (src/licenses/) depend on entitlements.
 */
@Module({
  imports: [ClockModule],
  providers: [
    LicenseKeysRepository,
    LicenseActivationsRepository,
    LicenseRecordsService,
    LicenseActivationSweeper,
    { provide: UnknownLicenseKeys, useFactory: () => new UnknownLicenseKeys() },
    {
      provide: LicenseKeyCipher,
      inject: [ServerSecrets],
      useFactory: async (secrets: ServerSecrets) =>
        new LicenseKeyCipher(await secrets.obtain(LICENSE_KEY_CHECKSUM_SECRET), await secrets.obtain(LICENSE_KEY_ENCRYPTION_SECRET)),
    },
  ],
  exports: [LicenseRecordsService, LicenseActivationSweeper],
})
export class LicenseRecordsModule {}
