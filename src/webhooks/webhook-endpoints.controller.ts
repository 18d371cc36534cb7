import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentTenant } from '../auth/current-tenant.decorator';
import { RequireScopes } from '../auth/route-access.decorators';
import type { Tenant } from '../database/tenant';
import type { Operation } from '../database/operation';
import { PageResult } from '../envelope/page-result';
import { ErrorCode } from '../errors/error-code.enum';
import { CurrentOperation } from '../idempotency/current-operation.decorator';
import { PaginationQueryDto } from '../pagination/pagination-query.dto';
import { ApiEnvelopeResponse } from '../swagger/api-envelope-response.decorator';
import { ApiErrorResponses } from '../swagger/api-error-responses.decorator';
import { CreateWebhookEndpointDto, UpdateWebhookEndpointDto } from './dto/webhook-endpoint-request.dto';
import {
  DeletedWebhookEndpointResponseDto,
  WebhookDeliveryResponseDto,
  WebhookEndpointResponseDto,
  WebhookEndpointWithSecretResponseDto,
} from './dto/webhook-endpoint-response.dto';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { WebhookTestSends } from './webhook-test-sends.service';
import { ApiIdParam } from '../swagger/api-path-parameters';
import { mayLag } from '../swagger/replica-lag';

const ENDPOINT_ID_PARAM = ApiIdParam('endpoint_id', 'we', 'Webhook endpoint', ['POST /v1/webhook-endpoints', 'GET /v1/webhook-endpoints']);

@ApiTags('webhooks')
@Controller('v1/webhook-endpoints')
export class WebhookEndpointsController {
  constructor(
    private readonly endpoints: WebhookEndpointsService,
    private readonly testSends: WebhookTestSends,
  ) {}

  @Post()
  @RequireScopes('webhooks:manage')
  @ApiOperation({
    summary: 'Register a webhook endpoint',
    description:
      'The URL must be http(s) (https in live mode) and must not be or resolve to a loopback, private, link-local, CGNAT or metadata address. The signing secret is shown only in this answer and on rotation.',
  })
  @ApiEnvelopeResponse(WebhookEndpointWithSecretResponseDto, { status: 201, description: 'The endpoint with its secret' })
  @ApiErrorResponses(ErrorCode.INVALID_PARAMETER, ErrorCode.MISSING_REQUIRED_FIELD)
  create(@CurrentOperation() operation: Operation, @Body() body: CreateWebhookEndpointDto): Promise<WebhookEndpointWithSecretResponseDto> {
    return this.endpoints.create(operation, body);
  }

  @Get()
  @RequireScopes('webhooks:read')
  @ApiOperation(mayLag({ summary: 'List webhook endpoints', description: 'Newest first, cursor-paginated; secrets are never listed.' }))
  @ApiEnvelopeResponse(WebhookEndpointResponseDto, { description: 'A page of endpoints', list: 'total' })
  @ApiErrorResponses(ErrorCode.INVALID_PARAMETER)
  list(@CurrentTenant() tenant: Tenant, @Query() query: PaginationQueryDto): Promise<PageResult<WebhookEndpointResponseDto>> {
    return this.endpoints.list(tenant, query);
  }

  // The endpoint's own path (GET, PATCH, DELETE) comes last: Swagger UI lists paths in this order, and
  // /docs fills the last endpoint's id (DESIGN §20), so the DELETE ends the walk of it.
  @Post(':endpoint_id/rotate-secret')
  @HttpCode(200)
  @RequireScopes('webhooks:manage')
  @ApiOperation({
    summary: 'Rotate the signing secret',
    description: 'Returns the new secret. For 24 h the old secret keeps signing too: webhook-signature then carries both signatures, space-separated.',
  })
  @ENDPOINT_ID_PARAM
  @ApiEnvelopeResponse(WebhookEndpointWithSecretResponseDto, { description: 'The endpoint with its new secret' })
  @ApiErrorResponses(ErrorCode.WEBHOOK_ENDPOINT_NOT_FOUND)
  rotateSecret(@CurrentOperation() operation: Operation, @Param('endpoint_id') endpointId: string): Promise<WebhookEndpointWithSecretResponseDto> {
    return this.endpoints.rotateSecret(operation, endpointId);
  }

  @Post(':endpoint_id/test')
  @HttpCode(200)
  @RequireScopes('webhooks:manage')
  @ApiOperation({
    summary: 'Send a test event',
    description:
      'Sends one event of type `webhook_endpoint.test` (its `data.object` is the endpoint) to this endpoint only, now, enabled or ' +
      'disabled, signed and checked like every delivery, and answers with the attempt: `succeeded`, `status_code`, `error`, ' +
      '`duration_ms`, `response_body`. The attempt is listed with the endpoint\'s deliveries. It is not retried, and the event is not ' +
      'in the event log. Accepts `Idempotency-Key` (a replay answers the first attempt without sending again).',
  })
  @ENDPOINT_ID_PARAM
  @ApiEnvelopeResponse(WebhookDeliveryResponseDto, { description: 'The attempt (a failed send is a 200 too: see succeeded and error)' })
  @ApiErrorResponses(ErrorCode.WEBHOOK_ENDPOINT_NOT_FOUND)
  test(@CurrentOperation() operation: Operation, @Param('endpoint_id') endpointId: string): Promise<WebhookDeliveryResponseDto> {
    return this.testSends.send(operation, endpointId);
  }

  @Get(':endpoint_id/deliveries')
  @RequireScopes('webhooks:read')
  @ApiOperation(mayLag({ summary: 'List delivery attempts', description: 'Every attempt to this endpoint, newest first, cursor-paginated.' }))
  @ENDPOINT_ID_PARAM
  @ApiEnvelopeResponse(WebhookDeliveryResponseDto, { description: 'A page of attempts', list: 'total' })
  @ApiErrorResponses(ErrorCode.WEBHOOK_ENDPOINT_NOT_FOUND, ErrorCode.INVALID_PARAMETER)
  deliveries(@CurrentTenant() tenant: Tenant, @Param('endpoint_id') endpointId: string, @Query() query: PaginationQueryDto): Promise<PageResult<WebhookDeliveryResponseDto>> {
    return this.endpoints.listDeliveries(tenant, endpointId, query);
  }

  @Get(':endpoint_id')
  @RequireScopes('webhooks:read')
  @ApiOperation({ summary: 'Get a webhook endpoint', description: 'Without its secret.' })
  @ENDPOINT_ID_PARAM
  @ApiEnvelopeResponse(WebhookEndpointResponseDto, { description: 'The endpoint' })
  @ApiErrorResponses(ErrorCode.WEBHOOK_ENDPOINT_NOT_FOUND)
  get(@CurrentTenant() tenant: Tenant, @Param('endpoint_id') endpointId: string): Promise<WebhookEndpointResponseDto> {
    return this.endpoints.get(tenant, endpointId);
  }

  @Patch(':endpoint_id')
  @RequireScopes('webhooks:manage')
  @ApiOperation({ summary: 'Update a webhook endpoint', description: 'Change url, enabled_events or description; disable it, or enable it again (queued deliveries resume).' })
  @ENDPOINT_ID_PARAM
  @ApiEnvelopeResponse(WebhookEndpointResponseDto, { description: 'The updated endpoint' })
  @ApiErrorResponses(ErrorCode.WEBHOOK_ENDPOINT_NOT_FOUND, ErrorCode.INVALID_PARAMETER)
  update(@CurrentOperation() operation: Operation, @Param('endpoint_id') endpointId: string, @Body() body: UpdateWebhookEndpointDto): Promise<WebhookEndpointResponseDto> {
    return this.endpoints.update(operation, endpointId, body);
  }

  @Delete(':endpoint_id')
  @HttpCode(200)
  @RequireScopes('webhooks:manage')
  @ApiOperation({ summary: 'Delete a webhook endpoint', description: 'Its queued deliveries and attempt history go with it.' })
  @ENDPOINT_ID_PARAM
  @ApiEnvelopeResponse(DeletedWebhookEndpointResponseDto, { description: 'Deleted' })
  @ApiErrorResponses(ErrorCode.WEBHOOK_ENDPOINT_NOT_FOUND)
  delete(@CurrentOperation() operation: Operation, @Param('endpoint_id') endpointId: string): Promise<DeletedWebhookEndpointResponseDto> {
    return this.endpoints.delete(operation, endpointId);
  }
}
