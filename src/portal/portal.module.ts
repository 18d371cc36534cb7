import { Global, Module } from '@nestjs/common';
import { PORTAL_SESSION_LOOKUP } from '../auth/portal-session-lookup';
import { ClockModule } from '../clock/clock.module';
import { CustomerRecordsModule } from '../customer-records/customer-records.module';
import { EntitlementsModule } from '../entitlements/entitlements.module';
import { FileRecordsModule } from '../files/file-records.module';
import { FilesModule } from '../files/files.module';
import { LicensesModule } from '../licenses/licenses.module';
import { ProductsModule } from '../products/products.module';
import { PortalApiController } from './portal-api.controller';
import { PortalLinkController } from './portal-link.controller';
import { PortalPruning } from './portal-pruning';
import { PortalSessionsController } from './portal-sessions.controller';
import { PortalSessionsRepository } from './portal-sessions.repository';
import { PortalSessionsService } from './portal-sessions.service';
import { PortalSettingsRepository } from './portal-settings.repository';
import { PortalSettingsService } from './portal-settings.service';
import { PortalService } from './portal.service';

/**
 * The customer portal (DESIGN §19): portal sessions and branding (its tables), the link that
 * starts a session, and the portal page's JSON. Global so the request authenticator (auth) finds
 * the session lookup without depending on it, as the dashboard's.
 */
@Global()
@Module({
  imports: [ClockModule, CustomerRecordsModule, EntitlementsModule, ProductsModule, FileRecordsModule, FilesModule, LicensesModule],
  controllers: [PortalSessionsController, PortalLinkController, PortalApiController],
  providers: [
    PortalSessionsRepository,
    PortalSettingsRepository,
    PortalSessionsService,
    PortalSettingsService,
    PortalService,
    PortalPruning,
    { provide: PORTAL_SESSION_LOOKUP, useExisting: PortalSessionsService },
  ],
  exports: [PORTAL_SESSION_LOOKUP],
})
export class PortalModule {}
