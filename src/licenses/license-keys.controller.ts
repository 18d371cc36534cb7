import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Query } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentTenant } from '../auth/current-tenant.decorator';
import { RequireScopes } from '../auth/route-access.decorators';
import type { Operation } from '../database/operation';
import type { Tenant } from '../database/tenant';
import { PageResult } from '../envelope/page-result';
import { ErrorCode } from '../errors/error-code.enum';
import { CurrentOperation } from '../idempotency/current-operation.decorator';
import { LicenseActivationResponseDto, LicenseKeyResponseDto } from '../license-records/dto/license-key-response.dto';
import { PaginationQueryDto } from '../pagination/pagination-query.dto';
import { ApiEnvelopeResponse } from '../swagger/api-envelope-response.decorator';
import { ApiErrorResponses } from '../swagger/api-error-responses.decorator';
import { ApiIdParam } from '../swagger/api-path-parameters';
import { DeletedActivationResponseDto } from './dto/license-app-response.dto';
import { ListLicenseKeysQueryDto, UpdateLicenseKeyDto } from './dto/license-key-request.dto';
import { LicenseKeysService } from './license-keys.service';

const LICENSE_KEY_ID_PARAM = ApiIdParam('license_key_id', 'lic', 'License key', ['GET /v1/license-keys']);
const ACTIVATION_ID_PARAM = ApiIdParam('activation_id', 'act', 'Activation', ['GET /v1/license-keys/{license_key_id}/activations']);

/** The merchant's view of license keys (DESIGN §18): the keys its grants issued, and their devices. */
@ApiTags('licenses')
@Controller('v1/license-keys')
export class LicenseKeysController {
  constructor(private readonly licenseKeys: LicenseKeysService) {}

  @Get()
  @RequireScopes('licenses:read')
  @ApiOperation({
    summary: 'List license keys',
    description: 'Newest first, cursor-paginated with total; filter by entitlement_id, customer_id or product_id. Each key shows its entitlement\'s status and its devices count.',
  })
  @ApiEnvelopeResponse(LicenseKeyResponseDto, { description: 'A page of license keys', list: 'total' })
  @ApiErrorResponses(ErrorCode.INVALID_PARAMETER)
  list(@CurrentTenant() tenant: Tenant, @Query() query: ListLicenseKeysQueryDto): Promise<PageResult<LicenseKeyResponseDto>> {
    return this.licenseKeys.list(tenant, query);
  }

  @Get(':license_key_id')
  @RequireScopes('licenses:read')
  @ApiOperation({ summary: 'Get a license key', description: 'The key as the customer types it, its status (the entitlement\'s) and its activation limit.' })
  @LICENSE_KEY_ID_PARAM
  @ApiEnvelopeResponse(LicenseKeyResponseDto, { description: 'The license key' })
  @ApiErrorResponses(ErrorCode.LICENSE_KEY_NOT_FOUND)
  get(@CurrentTenant() tenant: Tenant, @Param('license_key_id') licenseKeyId: string): Promise<LicenseKeyResponseDto> {
    return this.licenseKeys.get(tenant, licenseKeyId);
  }

  @Patch(':license_key_id')
  @RequireScopes('licenses:write')
  @ApiOperation({ summary: "Set a license key's activation limit", description: "One customer's own limit of devices, instead of the product's (null: unlimited)." })
  @LICENSE_KEY_ID_PARAM
  @ApiBody({ type: UpdateLicenseKeyDto })
  @ApiEnvelopeResponse(LicenseKeyResponseDto, { description: 'The updated license key' })
  @ApiErrorResponses(ErrorCode.INVALID_PARAMETER, ErrorCode.LICENSE_KEY_NOT_FOUND)
  update(@CurrentOperation() operation: Operation, @Param('license_key_id') licenseKeyId: string, @Body() body: UpdateLicenseKeyDto): Promise<LicenseKeyResponseDto> {
    return this.licenseKeys.update(operation, licenseKeyId, body);
  }

  @Get(':license_key_id/activations')
  @RequireScopes('licenses:read')
  @ApiOperation({ summary: "List a license key's activations", description: 'The devices it is active on, newest first, cursor-paginated with total.' })
  @LICENSE_KEY_ID_PARAM
  @ApiEnvelopeResponse(LicenseActivationResponseDto, { description: 'A page of activations', list: 'total' })
  @ApiErrorResponses(ErrorCode.INVALID_PARAMETER, ErrorCode.LICENSE_KEY_NOT_FOUND)
  listActivations(@CurrentTenant() tenant: Tenant, @Param('license_key_id') licenseKeyId: string, @Query() query: PaginationQueryDto): Promise<PageResult<LicenseActivationResponseDto>> {
    return this.licenseKeys.listActivations(tenant, licenseKeyId, query);
  }

  @Delete(':license_key_id/activations/:activation_id')
  @HttpCode(200)
  @RequireScopes('licenses:write')
  @ApiOperation({ summary: 'Deactivate a device', description: 'Frees its seat and publishes license.deactivated; the app finds out at its next validate or heartbeat.' })
  @LICENSE_KEY_ID_PARAM
  @ACTIVATION_ID_PARAM
  @ApiEnvelopeResponse(DeletedActivationResponseDto, { description: 'Deleted' })
  @ApiErrorResponses(ErrorCode.LICENSE_KEY_NOT_FOUND, ErrorCode.ACTIVATION_NOT_FOUND)
  deleteActivation(
    @CurrentOperation() operation: Operation,
    @Param('license_key_id') licenseKeyId: string,
    @Param('activation_id') activationId: string,
  ): Promise<DeletedActivationResponseDto> {
    return this.licenseKeys.deleteActivation(operation, licenseKeyId, activationId);
  }
}
