import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentTenant } from '../../auth/current-tenant.decorator';
import { RequireScopes } from '../../auth/route-access.decorators';
import type { Tenant } from '../../database/tenant';
import { ErrorCode } from '../../errors/error-code.enum';
import { ApiEnvelopeResponse } from '../../swagger/api-envelope-response.decorator';
import { ApiErrorResponses } from '../../swagger/api-error-responses.decorator';
import { EntitlementTokenResponseDto } from './dto/entitlement-token-response.dto';
import { EntitlementTokensService } from './entitlement-tokens.service';
import { ApiIdParam } from '../../swagger/api-path-parameters';

@ApiTags('entitlements')
@Controller('v1/entitlements')
export class EntitlementTokensController {
  constructor(private readonly tokens: EntitlementTokensService) {}

  @Post(':entitlement_id/token')
  @HttpCode(200)
  @RequireScopes('entitlements:read')
  @ApiOperation({
    summary: 'Issue a signed entitlement token',
    description:
      "A compact JWS (EdDSA) of the check's entitlement that the customer's app verifies offline against GET " +
      '/.well-known/jwks.json, with no call to this API. It expires at the earlier of the entitlement\'s expires_at and ' +
      'now + ENTITLEMENT_TOKEN_TTL (default 1 hour). A revoke or suspend reaches a token only when it expires: choose the ' +
      'TTL accordingly. Only an active entitlement (not suspended, revoked, pending, or expired by time or uses) gets one: ' +
      '403 ENTITLEMENT_NOT_ACTIVE otherwise.',
  })
  @ApiIdParam('entitlement_id', 'ent', 'Entitlement', ['POST /v1/entitlements', 'GET /v1/entitlements'])
  @ApiEnvelopeResponse(EntitlementTokenResponseDto, { description: 'The token and when it expires' })
  @ApiErrorResponses(ErrorCode.ENTITLEMENT_NOT_FOUND, ErrorCode.ENTITLEMENT_NOT_ACTIVE)
  issue(@CurrentTenant() tenant: Tenant, @Param('entitlement_id') entitlementId: string): Promise<EntitlementTokenResponseDto> {
    return this.tokens.issue(tenant, entitlementId);
  }
}
