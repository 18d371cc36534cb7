import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiParam } from '@nestjs/swagger';
import { ApiKeysService } from '../auth/api-keys.service';
import { ROLE_SCOPES } from '../auth/roles';
import { refusalOfKeyCreation } from './key-creation-rules';
import type { AuthenticatedRequest, DashboardSessionCredential } from '../auth/auth-context';
import { ApiKeyResponseDto, CreatedApiKeyResponseDto } from '../auth/dto/admin-response.dto';
import { MerchantsService } from '../auth/merchants.service';
import type { Tenant } from '../database/tenant';
import { CreateApiKeyDto } from '../auth/dto/api-key-request.dto';
import { BillingService } from '../billing/billing.service';
import { Clock } from '../clock/clock';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { DownloadStatisticsService } from '../files/download-statistics.service';
import { clientOf } from '../exchange/client-address';
import { HttpResponse, rawRequestOf } from '../exchange/http-exchange';
import { ApiEnvelopeResponse } from '../swagger/api-envelope-response.decorator';
import { ApiErrorResponses } from '../swagger/api-error-responses.decorator';
import { ApiJsonBody } from '../swagger/api-json-body.decorator';
import { CurrentSession, DashboardRoute, DashboardSession, DashboardTenant } from './dashboard-route.decorator';
import { DashboardSessionsService } from './dashboard-sessions.service';
import { DashboardUsersService } from './dashboard-users.service';
import { CompleteSetupDto, SignInDto } from './dto/dashboard-request.dto';
import { CompletedSetupResponseDto, DashboardOverviewResponseDto, DashboardSessionResponseDto, SignedOutResponseDto } from './dto/dashboard-response.dto';
import { mayLag } from '../swagger/replica-lag';
import { CurrentAudit, RequestAudit } from '../auth/request-audit';

const OVERVIEW_DAYS = 30;

/**
 * The dashboard app's own routes (DESIGN §11): sign-in and out, the session, password setup, the
 * Overview numbers /v1 has no route for, and the merchant's API keys. Everything else the app does
 * goes through /v1 with the session cookie and the page's Eh-Mode.
 */
@DashboardRoute()
@Controller('dashboard/api')
export class DashboardApiController {
  constructor(
    private readonly users: DashboardUsersService,
    private readonly sessions: DashboardSessionsService,
    private readonly merchants: MerchantsService,
    private readonly apiKeys: ApiKeysService,
    private readonly billing: BillingService,
    private readonly downloads: DownloadStatisticsService,
    private readonly clock: Clock,
  ) {}

  @Post('sign-in')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Sign in',
    description:
      'Starts a session: sets the httpOnly session cookie and returns the session with its CSRF token. Failures are limited per client ' +
      'address and per email: past the limit every attempt is a 429, right or wrong.',
  })
  @ApiJsonBody(SignInDto, { email: 'ada@example.com', password: 'correct horse battery staple' })
  @ApiEnvelopeResponse(DashboardSessionResponseDto, { description: 'The new session; the cookie is in Set-Cookie' })
  @ApiErrorResponses(ErrorCode.INVALID_PARAMETER, ErrorCode.INVALID_CREDENTIALS, ErrorCode.RATE_LIMITED)
  async signIn(
    @Body() body: SignInDto,
    @Req() request: AuthenticatedRequest,
    @CurrentAudit() audit: RequestAudit,
    @Res({ passthrough: true }) response: HttpResponse,
  ): Promise<DashboardSessionResponseDto> {
    const client = clientOf(rawRequestOf(request));
    const signedIn = await this.users.signIn(body.email, body.password, client.address, audit);
    response.header('Set-Cookie', this.sessions.cookieFor(client.secure).serialize(signedIn.token));
    return this.describe(signedIn);
  }

  @Post('setup')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Set a password through a setup or reset link',
    description:
      'Uses the one-time token of a setup link (from an invitation, a reset link or the admin API; valid 24 hours) to set the password ' +
      "(at least 12 characters), and ends every other session of the user (the one sending this request, if it is the user's, stays). Does not sign in.",
  })
  @ApiJsonBody(CompleteSetupDto, { token: 'mZ2xq1Hk8cV0yJ3pT5rW7uA9sD1fG3hK5lZ7xC9vB1n', password: 'correct horse battery staple' })
  @ApiEnvelopeResponse(CompletedSetupResponseDto, { description: 'The password is set' })
  @ApiErrorResponses(ErrorCode.MISSING_REQUIRED_FIELD, ErrorCode.INVALID_PARAMETER, ErrorCode.SETUP_LINK_INVALID)
  completeSetup(@Body() body: CompleteSetupDto, @Req() request: AuthenticatedRequest): Promise<CompletedSetupResponseDto> {
    const current = request.credential?.kind === 'dashboard-session' ? request.credential.session.sessionId : null;
    return this.users.completeSetup(body.token, body.password, current);
  }

  @Get('session')
  @DashboardSession()
  @ApiOperation({ summary: 'The signed-in session', description: 'Who is signed in, for which merchant, and the CSRF token to send on every state-changing request.' })
  @ApiEnvelopeResponse(DashboardSessionResponseDto, { description: 'The session' })
  session(@CurrentSession() session: DashboardSessionCredential): Promise<DashboardSessionResponseDto> {
    return this.describe(session);
  }

  @Post('sign-out')
  @HttpCode(200)
  @DashboardSession()
  @ApiOperation({ summary: 'Sign out', description: 'Ends the session on every instance and clears the cookie.' })
  @ApiEnvelopeResponse(SignedOutResponseDto, { description: 'Signed out' })
  async signOut(
    @CurrentSession() session: DashboardSessionCredential,
    @Req() request: AuthenticatedRequest,
    @Res({ passthrough: true }) response: HttpResponse,
  ): Promise<SignedOutResponseDto> {
    await this.sessions.end(session.sessionId);
    response.header('Set-Cookie', this.sessions.cookieFor(clientOf(rawRequestOf(request)).secure).cleared());
    return { signed_out: true };
  }

  @Get('overview')
  @DashboardSession({ mode: true })
  @ApiOperation(mayLag({
    summary: 'Overview numbers',
    description: "The plan, its limits and both modes' usage, and the last 30 UTC days of downloads and bandwidth of the request's mode (Eh-Mode).",
  }))
  @ApiEnvelopeResponse(DashboardOverviewResponseDto, { description: 'Plan, usage and 30 days of downloads' })
  async overview(@DashboardTenant() tenant: Tenant): Promise<DashboardOverviewResponseDto> {
    const [usage, daily] = await Promise.all([this.billing.usage(tenant.merchantId), this.downloads.dailyTotals(tenant, OVERVIEW_DAYS, this.clock.now())]);
    return { usage, daily };
  }

  @Get('api-keys')
  @DashboardSession()
  @ApiOperation({ summary: "The merchant's API keys", description: 'Both modes, revoked ones included; secrets are never listed.' })
  @ApiEnvelopeResponse(ApiKeyResponseDto, { description: 'Every key of the merchant', array: true })
  listApiKeys(@CurrentSession() session: DashboardSessionCredential): Promise<ApiKeyResponseDto[]> {
    return this.apiKeys.list(session.merchantId);
  }

  @Post('api-keys')
  @DashboardSession({ scopes: ['api_keys:manage'] })
  @ApiOperation({
    summary: 'Create an API key',
    description:
      "The key of the chosen mode and scopes; `key` is shown only in this answer. A key holds no scope the user's role lacks, " +
      'and a user limited to test mode creates test keys only (403 INSUFFICIENT_SCOPE).',
  })
  @ApiJsonBody(CreateApiKeyDto, { mode: 'test', scopes: ['entitlements:read', 'entitlements:write'], name: 'Storefront backend' })
  @ApiEnvelopeResponse(CreatedApiKeyResponseDto, { status: 201, description: 'The key, with its secret' })
  @ApiErrorResponses(ErrorCode.MISSING_REQUIRED_FIELD, ErrorCode.INVALID_PARAMETER)
  createApiKey(@CurrentSession() session: DashboardSessionCredential, @CurrentAudit() audit: RequestAudit, @Body() body: CreateApiKeyDto): Promise<CreatedApiKeyResponseDto> {
    const refusal = refusalOfKeyCreation(session, body);
    if (refusal) throw refusal;
    return this.apiKeys.create(session.merchantId, body, audit);
  }

  /** Only the session's merchant's keys: another merchant's id is a 404, like an unknown one. */
  @Delete('api-keys/:api_key_id')
  @DashboardSession({ scopes: ['api_keys:manage'] })
  @ApiOperation({ summary: 'Revoke an API key', description: 'The key gets 401 on its next request, on every instance within 5 s.' })
  @ApiParam({ name: 'api_key_id', description: 'API key id', example: 'key_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  @ApiEnvelopeResponse(ApiKeyResponseDto, { description: 'The revoked key' })
  @ApiErrorResponses(ErrorCode.API_KEY_NOT_FOUND)
  async revokeApiKey(@CurrentSession() session: DashboardSessionCredential, @CurrentAudit() audit: RequestAudit, @Param('api_key_id') keyId: string): Promise<ApiKeyResponseDto> {
    const owned = (await this.apiKeys.list(session.merchantId)).some((key) => key.id === keyId);
    if (!owned) throw new ApiError(ErrorCode.API_KEY_NOT_FOUND, `No API key with id '${keyId}'`);
    return this.apiKeys.revoke(keyId, audit);
  }

  private async describe(session: Omit<DashboardSessionCredential, 'sessionId'>): Promise<DashboardSessionResponseDto> {
    const merchant = await this.merchants.require(session.merchantId);
    return {
      user_id: session.userId,
      email: session.email,
      merchant_id: merchant.id,
      merchant_name: merchant.name,
      csrf_token: session.csrfToken,
      role: session.role,
      test_only: session.testOnly,
      scopes: [...ROLE_SCOPES[session.role]],
    };
  }
}
