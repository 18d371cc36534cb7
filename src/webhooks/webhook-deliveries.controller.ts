import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentTenant } from '../auth/current-tenant.decorator';
import { RequireScopes } from '../auth/route-access.decorators';
import type { Tenant } from '../database/tenant';
import { PageResult } from '../envelope/page-result';
import { ErrorCode } from '../errors/error-code.enum';
import { ApiEnvelopeResponse } from '../swagger/api-envelope-response.decorator';
import { ApiErrorResponses } from '../swagger/api-error-responses.decorator';
import { mayLag } from '../swagger/replica-lag';
import { ListWebhookDeliveriesQueryDto } from './dto/webhook-deliveries-query.dto';
import { WebhookDeliveryResponseDto } from './dto/webhook-endpoint-response.dto';
import { WebhookEndpointsService } from './webhook-endpoints.service';

/** The delivery log across endpoints (DESIGN §11: "deliveries filterable to failures"). */
@ApiTags('webhooks')
@Controller('v1/webhook-deliveries')
export class WebhookDeliveriesController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Get()
  @RequireScopes('webhooks:read')
  @ApiOperation(
    mayLag({
      summary: 'List delivery attempts to every endpoint',
      description: 'Every attempt to any of your endpoints, newest first, cursor-paginated with total; `endpoint_id` and `status` (succeeded, failed) narrow it.',
    }),
  )
  @ApiEnvelopeResponse(WebhookDeliveryResponseDto, { description: 'A page of attempts', list: 'total' })
  @ApiErrorResponses(ErrorCode.WEBHOOK_ENDPOINT_NOT_FOUND, ErrorCode.INVALID_PARAMETER)
  list(@CurrentTenant() tenant: Tenant, @Query() query: ListWebhookDeliveriesQueryDto): Promise<PageResult<WebhookDeliveryResponseDto>> {
    return this.endpoints.listAllDeliveries(tenant, query);
  }
}
