import { Body, Controller, Get, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentTenant } from '../auth/current-tenant.decorator';
import { RequireScopes } from '../auth/route-access.decorators';
import type { Operation } from '../database/operation';
import type { Tenant } from '../database/tenant';
import { ErrorCode } from '../errors/error-code.enum';
import { CurrentOperation } from '../idempotency/current-operation.decorator';
import { ApiEnvelopeResponse } from '../swagger/api-envelope-response.decorator';
import { ApiErrorResponses } from '../swagger/api-error-responses.decorator';
import { ApiJsonBody } from '../swagger/api-json-body.decorator';
import { CreatePortalSessionDto } from './dto/portal-session-request.dto';
import { PortalSessionResponseDto } from './dto/portal-session-response.dto';
import { PortalSettingsResponseDto, UpdatePortalSettingsDto } from './dto/portal-settings.dto';
import { PortalSessionsService } from './portal-sessions.service';
import { PortalSettingsService } from './portal-settings.service';

/** The merchant's side of the customer portal (DESIGN §19): links for customers, and the portal's branding. */
@ApiTags('portal')
@Controller('v1')
export class PortalSessionsController {
  constructor(
    private readonly sessions: PortalSessionsService,
    private readonly settings: PortalSettingsService,
  ) {}

  @Post('portal-sessions')
  @RequireScopes('portal:write')
  @ApiOperation({
    summary: 'Create a portal session',
    description:
      "A one-time link to the hosted customer portal, where the customer sees their entitlements, downloads files, copies license keys and deactivates devices. " +
      'Redirect the customer to `url`: it works once, within one hour, and starts a portal session (12 hours idle) for that customer in this mode only. ' +
      '`return_url` must be https (http only on loopback). Accepts `Idempotency-Key`.',
  })
  @ApiJsonBody(CreatePortalSessionDto, { store_customer_id: 'store_cust_1001', return_url: 'https://shop.example.com/account' })
  @ApiEnvelopeResponse(PortalSessionResponseDto, { status: 201, description: 'The session, with its one-time link' })
  @ApiErrorResponses(ErrorCode.MISSING_REQUIRED_FIELD, ErrorCode.INVALID_PARAMETER, ErrorCode.CUSTOMER_NOT_FOUND)
  create(@CurrentOperation() operation: Operation, @Body() body: CreatePortalSessionDto): Promise<PortalSessionResponseDto> {
    return this.sessions.create(operation, body);
  }

  @Get('portal-settings')
  @RequireScopes('portal:read')
  @ApiOperation({ summary: "Get the portal's branding", description: 'The name, accent colour, logo and support page the portal shows in this mode (null fields: the defaults).' })
  @ApiEnvelopeResponse(PortalSettingsResponseDto, { description: 'The branding' })
  getSettings(@CurrentTenant() tenant: Tenant): Promise<PortalSettingsResponseDto> {
    return this.settings.get(tenant);
  }

  @Patch('portal-settings')
  @RequireScopes('portal_settings:write')
  @ApiOperation({
    summary: "Change the portal's branding",
    description: 'Sets the fields given (null clears one) for this mode. `accent_color` is #rrggbb; `logo_url` and `support_url` are https.',
  })
  @ApiJsonBody(UpdatePortalSettingsDto, { display_name: 'Field Sketching Co.', accent_color: '#0a7d45', logo_url: 'https://shop.example.com/logo.png', support_url: 'https://shop.example.com/help' })
  @ApiEnvelopeResponse(PortalSettingsResponseDto, { description: 'The branding' })
  @ApiErrorResponses(ErrorCode.INVALID_PARAMETER)
  updateSettings(@CurrentOperation() operation: Operation, @Body() body: UpdatePortalSettingsDto): Promise<PortalSettingsResponseDto> {
    return this.settings.update(operation, body);
  }
}
