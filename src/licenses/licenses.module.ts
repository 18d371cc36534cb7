import { Module } from '@nestjs/common';
import { EntitlementsModule } from '../entitlements/entitlements.module';
import { LicenseRecordsModule } from '../license-records/license-records.module';
import { ProductsModule } from '../products/products.module';
import { LicenseFileSigner } from './license-file';
import { LicenseKeysController } from './license-keys.controller';
import { LicenseKeysService } from './license-keys.service';
import { LicensePreflightController } from './license-preflight.controller';
import { LicensesController } from './licenses.controller';
import { LicensesService } from './licenses.service';

/**
 * License keys' routes (DESIGN §18): the merchant's (/v1/license-keys) and the customer's app's
 * (/v1/licenses/*, authenticated by the key). The tables and the issuing are LicenseRecordsModule's.
 */
@Module({
  imports: [LicenseRecordsModule, EntitlementsModule, ProductsModule],
  controllers: [LicenseKeysController, LicensesController, LicensePreflightController],
  providers: [LicenseKeysService, LicensesService, LicenseFileSigner],
  // The demo catalogue activates its license key once, as an app would (src/demo/); the portal lists
  // its customer's keys and deactivates devices through LicenseKeysService (DESIGN §19).
  exports: [LicenseKeysService, LicensesService],
})
export class LicensesModule {}
