import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import { ApiExtension, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/route-access.decorators';
import { StatusResult } from '../envelope/status-result';
import { ErrorCode } from '../errors/error-code.enum';
import { ClientAddress } from '../exchange/client-address.decorator';
import type { HttpResponse } from '../exchange/http-exchange';
import type { HeaderSink } from '../rate-limiting/rate-limiter';
import { ApiEnvelopeResponse } from '../swagger/api-envelope-response.decorator';
import { ApiErrorResponses } from '../swagger/api-error-responses.decorator';
import { ApiJsonBody } from '../swagger/api-json-body.decorator';
import { LICENSE_KEY_CREDENTIAL } from '../swagger/security-schemes';
import { ActivateLicenseDto, LicenseDeviceDto, ValidateLicenseDto } from './dto/license-app-request.dto';
import { ActivateLicenseResponseDto, DeactivateLicenseResponseDto, HeartbeatResponseDto, ValidateLicenseResponseDto } from './dto/license-app-response.dto';
import { LicensesService } from './licenses.service';

const EXAMPLE_KEY = 'K7Q2M-9XH4T-P3N8V-R6W1C-5J0DB';
const AUTHENTICATION =
  'No API key: the license key in the body is the credential, so the customer\'s app calls it directly (CORS open). Rate-limited per key; ' +
  'unknown keys are counted per client address (AUTH_FAILURE_LIMIT_PER_MINUTE), and past it every unknown key is 429 without a database lookup.';

const headerSinkOf = (response: HttpResponse): HeaderSink => (name, value) => response.header(name, value);

/** The customer's app's routes (DESIGN §18): authenticated by the license key alone. */
@ApiTags('licenses')
@Public()
@ApiExtension('x-credential', LICENSE_KEY_CREDENTIAL)
@Controller('v1/licenses')
export class LicensesController {
  constructor(private readonly licenses: LicensesService) {}

  @Post('validate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Validate a license key (from the app)',
    description: `Whether the key is valid now and, with a fingerprint, activated on this device. ${AUTHENTICATION}`,
  })
  @ApiJsonBody(ValidateLicenseDto, { key: EXAMPLE_KEY, fingerprint: 'machine-4f9a2c' })
  @ApiEnvelopeResponse(ValidateLicenseResponseDto, { description: 'The answer; valid is true only for code VALID' })
  @ApiErrorResponses(ErrorCode.MISSING_REQUIRED_FIELD, ErrorCode.INVALID_PARAMETER, ErrorCode.LICENSE_KEY_NOT_FOUND, ErrorCode.RATE_LIMITED)
  validate(@ClientAddress() clientAddress: string, @Body() body: ValidateLicenseDto, @Res({ passthrough: true }) response: HttpResponse): Promise<ValidateLicenseResponseDto> {
    return this.licenses.validate(clientAddress, body, headerSinkOf(response));
  }

  @Post('activate')
  @ApiOperation({
    summary: 'Activate a device (from the app)',
    description:
      'Takes a seat for this fingerprint: 201 with the activation, or 200 with the same one when the fingerprint is already active; both with a ' +
      'license_file for running offline. Past the activation limit 409 ACTIVATION_LIMIT_REACHED (exact however many devices race); an entitlement ' +
      `that is not active 403 ENTITLEMENT_NOT_ACTIVE. ${AUTHENTICATION}`,
  })
  @ApiJsonBody(ActivateLicenseDto, { key: EXAMPLE_KEY, fingerprint: 'machine-4f9a2c', name: "Ada's MacBook", metadata: { os: 'macOS 15' } })
  @ApiEnvelopeResponse(ActivateLicenseResponseDto, { status: 201, description: 'A new activation' })
  @ApiEnvelopeResponse(ActivateLicenseResponseDto, { status: 200, description: 'The fingerprint was already active: the same activation, seen now' })
  @ApiErrorResponses(
    ErrorCode.MISSING_REQUIRED_FIELD,
    ErrorCode.INVALID_PARAMETER,
    ErrorCode.LICENSE_KEY_NOT_FOUND,
    ErrorCode.ENTITLEMENT_NOT_ACTIVE,
    ErrorCode.ACTIVATION_LIMIT_REACHED,
    ErrorCode.RATE_LIMITED,
  )
  activate(@ClientAddress() clientAddress: string, @Body() body: ActivateLicenseDto, @Res({ passthrough: true }) response: HttpResponse): Promise<StatusResult<ActivateLicenseResponseDto>> {
    return this.licenses.activate(clientAddress, body, headerSinkOf(response));
  }

  // An app's order, as Swagger UI lists them: activate, heartbeats, deactivate.
  @Post('heartbeat')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Keep a device active (from the app)',
    description: `Moves last_seen_at to now. With the product's activation_ttl_seconds set, a device that stops sending heartbeats loses its seat to the sweep (license.activation_expired). ${AUTHENTICATION}`,
  })
  @ApiJsonBody(LicenseDeviceDto, { key: EXAMPLE_KEY, fingerprint: 'machine-4f9a2c' })
  @ApiEnvelopeResponse(HeartbeatResponseDto, { description: 'The activation, seen now' })
  @ApiErrorResponses(
    ErrorCode.MISSING_REQUIRED_FIELD,
    ErrorCode.INVALID_PARAMETER,
    ErrorCode.LICENSE_KEY_NOT_FOUND,
    ErrorCode.ENTITLEMENT_NOT_ACTIVE,
    ErrorCode.ACTIVATION_NOT_FOUND,
    ErrorCode.RATE_LIMITED,
  )
  heartbeat(@ClientAddress() clientAddress: string, @Body() body: LicenseDeviceDto, @Res({ passthrough: true }) response: HttpResponse): Promise<HeartbeatResponseDto> {
    return this.licenses.heartbeat(clientAddress, body, headerSinkOf(response));
  }

  @Post('deactivate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Deactivate a device (from the app)', description: `Frees this fingerprint's seat (license.deactivated). ${AUTHENTICATION}` })
  @ApiJsonBody(LicenseDeviceDto, { key: EXAMPLE_KEY, fingerprint: 'machine-4f9a2c' })
  @ApiEnvelopeResponse(DeactivateLicenseResponseDto, { description: 'Deactivated' })
  @ApiErrorResponses(ErrorCode.MISSING_REQUIRED_FIELD, ErrorCode.INVALID_PARAMETER, ErrorCode.LICENSE_KEY_NOT_FOUND, ErrorCode.ACTIVATION_NOT_FOUND, ErrorCode.RATE_LIMITED)
  deactivate(@ClientAddress() clientAddress: string, @Body() body: LicenseDeviceDto, @Res({ passthrough: true }) response: HttpResponse): Promise<DeactivateLicenseResponseDto> {
    return this.licenses.deactivate(clientAddress, body, headerSinkOf(response));
  }
}
