import { Controller, Delete, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import type { PortalSessionCredential } from '../auth/auth-context';
import { clientOf } from '../exchange/client-address';
import { ClientAddress } from '../exchange/client-address.decorator';
import { HttpRequest, HttpResponse, rawRequestOf } from '../exchange/http-exchange';
import type { PortalDownload, PortalEntitlements, PortalLicenseKey, PortalSession } from './dto/portal-app.dto';
import { CurrentPortalSession, PortalRoute } from './portal-route.decorator';
import { PortalSessionsService } from './portal-sessions.service';
import { PortalService } from './portal.service';

/** The portal page's JSON (DESIGN §19): its customer's deliveries, downloads and devices, and nothing else. */
@PortalRoute()
@Controller('portal/api')
export class PortalApiController {
  constructor(
    private readonly portal: PortalService,
    private readonly sessions: PortalSessionsService,
  ) {}

  @Get('session')
  session(@CurrentPortalSession() session: PortalSessionCredential): Promise<PortalSession> {
    return this.portal.session(session);
  }

  @Get('entitlements')
  entitlements(@CurrentPortalSession() session: PortalSessionCredential): Promise<PortalEntitlements> {
    return this.portal.entitlements(session);
  }

  @Post('entitlements/:entitlement_id/files/:file_id/download')
  @HttpCode(200)
  download(
    @CurrentPortalSession() session: PortalSessionCredential,
    @Param('entitlement_id') entitlementId: string,
    @Param('file_id') fileId: string,
    @ClientAddress() clientAddress: string,
  ): Promise<PortalDownload> {
    return this.portal.download(session, entitlementId, fileId, clientAddress);
  }

  @Get('license-keys')
  licenseKeys(@CurrentPortalSession() session: PortalSessionCredential): Promise<PortalLicenseKey[]> {
    return this.portal.licenseKeys(session);
  }

  @Delete('license-keys/:license_key_id/activations/:activation_id')
  deactivate(
    @CurrentPortalSession() session: PortalSessionCredential,
    @Param('license_key_id') licenseKeyId: string,
    @Param('activation_id') activationId: string,
  ): Promise<{ id: string; deleted: boolean }> {
    return this.portal.deactivate(session, licenseKeyId, activationId);
  }

  @Post('sign-out')
  @HttpCode(200)
  async signOut(@CurrentPortalSession() session: PortalSessionCredential, @Req() request: HttpRequest, @Res({ passthrough: true }) response: HttpResponse): Promise<{ signed_out: boolean }> {
    await this.sessions.end(session);
    response.header('Set-Cookie', this.sessions.cookieFor(clientOf(rawRequestOf(request)).secure).cleared());
    return { signed_out: true };
  }
}
