import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiKeysService } from '../auth/api-keys.service';
import type { AuthenticatedRequest } from '../auth/auth-context';
import { ApiKeyResponseDto, CreatedApiKeyResponseDto } from '../auth/dto/admin-response.dto';
import { CreateApiKeyDto } from '../auth/dto/api-key-request.dto';
import { BillingService } from '../billing/billing.service';
import { Clock } from '../clock/clock';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { DownloadStatisticsService } from '../files/download-statistics.service';
import { clientOf } from '../exchange/client-address';
import { HttpResponse, rawRequestOf } from '../exchange/http-exchange';
import { DashboardRoute, RequireDashboardSession, sessionOf } from './dashboard-route.decorator';
import { DashboardSessionsService } from './dashboard-sessions.service';
import { DashboardUsersService } from './dashboard-users.service';
import { CompleteSetupDto, SignInDto, SwitchModeDto } from './dto/dashboard-request.dto';
import { DashboardOverviewResponseDto, DashboardSessionResponseDto } from './dto/dashboard-response.dto';

const OVERVIEW_DAYS = 30;

/**
 * The dashboard app's own routes (DESIGN §11): sign-in and out, the session and its test/live
 * switch, password setup, the Overview numbers /v1 has no route for, and the merchant's API keys.
 * Everything else the app does goes through /v1 with the session cookie.
 */
@DashboardRoute()
@Controller('dashboard/api')
export class DashboardApiController {
  constructor(
    private readonly users: DashboardUsersService,
    private readonly sessions: DashboardSessionsService,
    private readonly apiKeys: ApiKeysService,
    private readonly billing: BillingService,
    private readonly downloads: DownloadStatisticsService,
    private readonly clock: Clock,
  ) {}

  @Post('sign-in')
  @HttpCode(200)
  async signIn(@Body() body: SignInDto, @Req() request: AuthenticatedRequest, @Res({ passthrough: true }) response: HttpResponse): Promise<DashboardSessionResponseDto> {
    const client = clientOf(rawRequestOf(request));
    const signedIn = await this.users.signIn(body.email, body.password, client.address);
    response.header('Set-Cookie', this.sessions.cookieFor(client.secure).serialize(signedIn.token));
    return { email: signedIn.email, merchant_id: signedIn.merchantId, mode: signedIn.mode, csrf_token: signedIn.csrfToken };
  }

  @Post('setup')
  @HttpCode(200)
  completeSetup(@Body() body: CompleteSetupDto): Promise<{ email: string }> {
    return this.users.completeSetup(body.token, body.password);
  }

  @Get('session')
  @RequireDashboardSession()
  session(@Req() request: AuthenticatedRequest): DashboardSessionResponseDto {
    return this.describe(request);
  }

  @Post('sign-out')
  @HttpCode(200)
  @RequireDashboardSession()
  async signOut(@Req() request: AuthenticatedRequest, @Res({ passthrough: true }) response: HttpResponse): Promise<{ signed_out: boolean }> {
    await this.sessions.end(sessionOf(request).sessionId);
    response.header('Set-Cookie', this.sessions.cookieFor(clientOf(rawRequestOf(request)).secure).cleared());
    return { signed_out: true };
  }

  @Post('session/mode')
  @HttpCode(200)
  @RequireDashboardSession()
  async switchMode(@Req() request: AuthenticatedRequest, @Body() body: SwitchModeDto): Promise<DashboardSessionResponseDto> {
    await this.sessions.setMode(sessionOf(request).sessionId, body.mode);
    const described = this.describe(request);
    return { ...described, mode: body.mode };
  }

  @Get('overview')
  @RequireDashboardSession()
  async overview(@Req() request: AuthenticatedRequest): Promise<DashboardOverviewResponseDto> {
    const auth = authOf(request);
    const [usage, daily] = await Promise.all([this.billing.usage(auth.merchantId), this.downloads.dailyTotals(auth.tenant, OVERVIEW_DAYS, this.clock.now())]);
    return { usage, daily };
  }

  @Get('api-keys')
  @RequireDashboardSession()
  listApiKeys(@Req() request: AuthenticatedRequest): Promise<ApiKeyResponseDto[]> {
    return this.apiKeys.list(authOf(request).merchantId);
  }

  @Post('api-keys')
  @RequireDashboardSession()
  createApiKey(@Req() request: AuthenticatedRequest, @Body() body: CreateApiKeyDto): Promise<CreatedApiKeyResponseDto> {
    return this.apiKeys.create(authOf(request).merchantId, body);
  }

  /** Only the session's merchant's keys: another merchant's id is a 404, like an unknown one. */
  @Delete('api-keys/:api_key_id')
  @RequireDashboardSession()
  async revokeApiKey(@Req() request: AuthenticatedRequest, @Param('api_key_id') keyId: string): Promise<ApiKeyResponseDto> {
    const owned = (await this.apiKeys.list(authOf(request).merchantId)).some((key) => key.id === keyId);
    if (!owned) throw new ApiError(ErrorCode.API_KEY_NOT_FOUND, `No API key with id '${keyId}'`);
    return this.apiKeys.revoke(keyId);
  }

  private describe(request: AuthenticatedRequest): DashboardSessionResponseDto {
    const auth = authOf(request);
    const session = sessionOf(request);
    return { email: session.email, merchant_id: auth.merchantId, mode: auth.mode, csrf_token: session.csrfToken };
  }
}

function authOf(request: AuthenticatedRequest) {
  if (!request.auth) throw new ApiError(ErrorCode.INVALID_SESSION, 'Sign in to the dashboard first');
  return request.auth;
}
