import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentTenant } from '../auth/current-tenant.decorator';
import { RequireScopes } from '../auth/route-access.decorators';
import type { Tenant } from '../database/tenant';
import type { Operation } from '../database/operation';
import { PageResult } from '../envelope/page-result';
import { ErrorCode } from '../errors/error-code.enum';
import { CurrentOperation } from '../idempotency/current-operation.decorator';
import { ApiEnvelopeResponse } from '../swagger/api-envelope-response.decorator';
import { ApiJsonBody } from '../swagger/api-json-body.decorator';
import { ApiErrorResponses } from '../swagger/api-error-responses.decorator';
import { EventResponseDto, RedeliveryResponseDto } from './dto/event-response.dto';
import { WebhookDeliveryResponseDto } from './dto/webhook-endpoint-response.dto';
import { PaginationQueryDto } from '../pagination/pagination-query.dto';
import { ListEventsQueryDto } from './dto/list-events-query.dto';
import { RedeliverEventDto } from './dto/redeliver-event.dto';
import { EventsService } from './events.service';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { ApiIdParam } from '../swagger/api-path-parameters';
import { mayLag } from '../swagger/replica-lag';

const EVENT_ID_PARAM = ApiIdParam('event_id', 'evt', 'Event', ['GET /v1/events']);

@ApiTags('events')
@Controller('v1/events')
export class EventsController {
  constructor(
    private readonly events: EventsService,
    private readonly endpoints: WebhookEndpointsService,
  ) {}

  @Get()
  @RequireScopes('events:read')
  @ApiOperation(mayLag({
    summary: 'List events',
    description:
      'The event log of this mode, newest first, cursor-paginated; filter by type, by the changed object (`object_id`: events whose ' +
      '`data.object.id` is this id) and creation time (exclusive bounds).',
  }))
  @ApiEnvelopeResponse(EventResponseDto, { description: 'A page of events', list: 'total' })
  @ApiErrorResponses(ErrorCode.INVALID_PARAMETER)
  list(@CurrentTenant() tenant: Tenant, @Query() query: ListEventsQueryDto): Promise<PageResult<EventResponseDto>> {
    return this.events.list(tenant, query);
  }

  @Get(':event_id')
  @RequireScopes('events:read')
  @ApiOperation({ summary: 'Get an event', description: 'The event exactly as delivered to webhook endpoints.' })
  @EVENT_ID_PARAM
  @ApiEnvelopeResponse(EventResponseDto, { description: 'The event' })
  @ApiErrorResponses(ErrorCode.EVENT_NOT_FOUND)
  get(@CurrentTenant() tenant: Tenant, @Param('event_id') eventId: string): Promise<EventResponseDto> {
    return this.events.get(tenant, eventId);
  }

  @Get(':event_id/deliveries')
  @RequireScopes('events:read')
  @ApiOperation(mayLag({
    summary: "List an event's delivery attempts",
    description: 'Every attempt to send this event, to any webhook endpoint (each names its endpoint_id), newest first, cursor-paginated with total.',
  }))
  @EVENT_ID_PARAM
  @ApiEnvelopeResponse(WebhookDeliveryResponseDto, { description: 'A page of attempts', list: 'total' })
  @ApiErrorResponses(ErrorCode.EVENT_NOT_FOUND, ErrorCode.INVALID_PARAMETER)
  listDeliveries(@CurrentTenant() tenant: Tenant, @Param('event_id') eventId: string, @Query() query: PaginationQueryDto): Promise<PageResult<WebhookDeliveryResponseDto>> {
    return this.endpoints.listEventDeliveries(tenant, eventId, query);
  }

  @Post(':event_id/redeliver')
  @HttpCode(202)
  @RequireScopes('events:redeliver')
  @ApiOperation({
    summary: 'Redeliver an event',
    description: 'Queues the event again (same webhook-id) for one endpoint, or for every enabled endpoint subscribed to its type.',
  })
  @EVENT_ID_PARAM
  // The body is optional (an empty POST redelivers to every subscribed endpoint), and so is its example's id.
  @ApiJsonBody(RedeliverEventDto, {}, { required: false, summary: 'To every enabled endpoint subscribed to the type' })
  @ApiEnvelopeResponse(RedeliveryResponseDto, { status: 202, description: 'Queued' })
  @ApiErrorResponses(ErrorCode.EVENT_NOT_FOUND, ErrorCode.WEBHOOK_ENDPOINT_NOT_FOUND, ErrorCode.INVALID_PARAMETER)
  redeliver(@CurrentOperation() operation: Operation, @Param('event_id') eventId: string, @Body() body: RedeliverEventDto): Promise<RedeliveryResponseDto> {
    return this.endpoints.redeliver(operation, eventId, body);
  }
}
