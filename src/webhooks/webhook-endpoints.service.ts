import { ListWebhookDeliveriesQueryDto } from './dto/webhook-deliveries-query.dto';
import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import type { Tenant } from '../database/tenant';
import { AppConfig } from '../config/app-config';
import type { Operation } from '../database/operation';
import { UnitOfWork } from '../database/unit-of-work';
import type { Reader } from '../database/transaction';
import { PageResult } from '../envelope/page-result';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { EVENTS_COMMITTED } from '../database/domain-event';
import { generateId, isValidId } from '../ids/id';
import { toPageRequest, toPageResult } from '../pagination/page';
import { PaginationQueryDto } from '../pagination/pagination-query.dto';
import { RedeliveryResponseDto } from './dto/event-response.dto';
import { RedeliverEventDto } from './dto/redeliver-event.dto';
import { CreateWebhookEndpointDto, UpdateWebhookEndpointDto } from './dto/webhook-endpoint-request.dto';
import {
  DeletedWebhookEndpointResponseDto,
  WebhookDeliveryResponseDto,
  WebhookEndpointResponseDto,
  WebhookEndpointWithSecretResponseDto,
} from './dto/webhook-endpoint-response.dto';
import { EventsService } from './events.service';
import { deliveryObjectId } from './outbox.repository';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';
import { toWebhookDeliveryResponse, toWebhookEndpointResponse, toWebhookEndpointWithSecret } from './webhook-endpoint.mapper';
import { WebhookEndpointChanges, WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { generateWebhookSecret } from './webhook-signature';
import { checkResolvedHost, checkWebhookUrlSyntax, hostOf, PrivateWebhookUrlError, UnsafeWebhookUrlError } from './webhook-url-guard';

/** After a rotation the old secret signs alongside the new one this long, so receivers can switch. */
const ROTATION_OVERLAP_MILLISECONDS = 24 * 60 * 60 * 1000;

@Injectable()
export class WebhookEndpointsService {
  constructor(
    private readonly config: AppConfig,
    private readonly unitOfWork: UnitOfWork,
    private readonly emitter: EventEmitter2,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly events: EventsService,
  ) {}

  async create(operation: Operation, input: CreateWebhookEndpointDto): Promise<WebhookEndpointWithSecretResponseDto> {
    const { tenant } = operation;
    const url = await this.checkUrl(tenant, input.url);
    return this.unitOfWork.run(operation, async (tx) => {
      const endpoint = await this.endpoints.insert(tx, tenant, {
        id: generateId('we'),
        url,
        private_urls_allowed: this.config.webhookAllowPrivateUrls,
        description: input.description ?? null,
        enabled_events: normalizeEvents(input.enabled_events),
        disabled: false,
        disabled_reason: null,
        secret: generateWebhookSecret(),
        previous_secret: null,
        previous_secret_expires_at: null,
      });
      return toWebhookEndpointWithSecret(endpoint);
    });
  }

  async list(tenant: Tenant, query: PaginationQueryDto): Promise<PageResult<WebhookEndpointResponseDto>> {
    const page = toPageRequest(query);
    const { rows, total } = await this.endpoints.list(this.unitOfWork.replica, tenant, page);
    return toPageResult(rows, page, (row) => row.created_at, (row) => toWebhookEndpointResponse(row), total);
  }

  async get(tenant: Tenant, endpointId: string): Promise<WebhookEndpointResponseDto> {
    return toWebhookEndpointResponse(await this.require(this.unitOfWork.pool, tenant, endpointId));
  }

  async update(operation: Operation, endpointId: string, input: UpdateWebhookEndpointDto): Promise<WebhookEndpointResponseDto> {
    const { tenant } = operation;
    await this.require(this.unitOfWork.pool, tenant, endpointId);
    const changes: WebhookEndpointChanges = {};
    if (input.url !== undefined) {
      changes.url = await this.checkUrl(tenant, input.url);
      // The decision is stored with the URL, so every instance delivers to it alike.
      changes.private_urls_allowed = this.config.webhookAllowPrivateUrls;
    }
    if (input.enabled_events !== undefined) changes.enabled_events = normalizeEvents(input.enabled_events);
    if (input.description !== undefined) changes.description = input.description;
    if (input.disabled !== undefined) {
      changes.disabled = input.disabled;
      changes.disabled_reason = input.disabled ? 'manual' : null;
    }
    const saved = await this.unitOfWork.run(operation, (tx) => this.endpoints.update(tx, tenant, endpointId, changes));
    if (!saved) throw notFound(endpointId);
    // Re-enabled endpoints have queued deliveries waiting.
    if (input.disabled === false) this.emitter.emit(EVENTS_COMMITTED);
    return toWebhookEndpointResponse(saved);
  }

  async delete(operation: Operation, endpointId: string): Promise<DeletedWebhookEndpointResponseDto> {
    const { tenant } = operation;
    return this.unitOfWork.run(operation, async (tx) => {
      await this.require(tx, tenant, endpointId);
      await this.endpoints.delete(tx, tenant, endpointId);
      return { id: endpointId, deleted: true };
    });
  }

  async rotateSecret(operation: Operation, endpointId: string): Promise<WebhookEndpointWithSecretResponseDto> {
    const { tenant } = operation;
    return this.unitOfWork.run(operation, async (tx) => {
      const endpoint = await this.require(tx, tenant, endpointId);
      const rotated = await this.endpoints.update(tx, tenant, endpointId, {
        previous_secret: endpoint.secret,
        previous_secret_expires_at: new Date(Date.now() + ROTATION_OVERLAP_MILLISECONDS),
        secret: generateWebhookSecret(),
      });
      if (!rotated) throw notFound(endpointId);
      return toWebhookEndpointWithSecret(rotated);
    });
  }

  async listDeliveries(tenant: Tenant, endpointId: string, query: PaginationQueryDto): Promise<PageResult<WebhookDeliveryResponseDto>> {
    await this.require(this.unitOfWork.pool, tenant, endpointId);
    const page = toPageRequest(query);
    const { rows, total } = await this.deliveries.listAttempts(this.unitOfWork.replica, tenant, { endpointId }, page);
    return toPageResult(rows, page, (row) => row.attempted_at, toWebhookDeliveryResponse, total);
  }

  /**
   * GET /v1/webhook-deliveries: attempts to every endpoint of the tenant, or to one (an unknown
   * endpoint id is a 404, as on its own route), only failed or succeeded ones when asked.
   */
  async listAllDeliveries(tenant: Tenant, query: ListWebhookDeliveriesQueryDto): Promise<PageResult<WebhookDeliveryResponseDto>> {
    if (query.endpoint_id !== undefined) await this.require(this.unitOfWork.pool, tenant, query.endpoint_id);
    const page = toPageRequest(query);
    const of = query.endpoint_id !== undefined ? { endpointId: query.endpoint_id } : { tenant: true as const };
    const succeeded = query.status === undefined ? undefined : query.status === 'succeeded';
    const { rows, total } = await this.deliveries.listAttempts(this.unitOfWork.replica, tenant, of, page, succeeded);
    return toPageResult(rows, page, (row) => row.attempted_at, toWebhookDeliveryResponse, total);
  }

  /** GET /v1/events/{id}/deliveries: every attempt to send the event, to any endpoint, newest first. */
  async listEventDeliveries(tenant: Tenant, eventId: string, query: PaginationQueryDto): Promise<PageResult<WebhookDeliveryResponseDto>> {
    await this.events.require(this.unitOfWork.pool, tenant, eventId);
    const page = toPageRequest(query);
    const { rows, total } = await this.deliveries.listAttempts(this.unitOfWork.replica, tenant, { eventId }, page);
    return toPageResult(rows, page, (row) => row.attempted_at, toWebhookDeliveryResponse, total);
  }

  /** Queues the event again for one endpoint, or for every enabled endpoint subscribed to its type. */
  async redeliver(operation: Operation, eventId: string, input: RedeliverEventDto): Promise<RedeliveryResponseDto> {
    const { tenant } = operation;
    const response = await this.unitOfWork.run(operation, async (tx) => {
      const event = await this.events.require(tx, tenant, eventId);
      const targets = input.endpoint_id ? [await this.require(tx, tenant, input.endpoint_id)] : await this.endpoints.findSubscribed(tx, tenant, event.type);
      const endpointIds = targets.map((endpoint) => endpoint.id);
      await this.deliveries.enqueue(tx, tenant, [{ id: event.id, objectId: deliveryObjectId(event.data.object, event.id) }], endpointIds);
      return { event_id: event.id, endpoint_ids: endpointIds };
    });
    this.emitter.emit(EVENTS_COMMITTED);
    return response;
  }

  /** The endpoint of this tenant and mode, or 404 WEBHOOK_ENDPOINT_NOT_FOUND (also for malformed ids). */
  /** The tenant's endpoint, or 404 WEBHOOK_ENDPOINT_NOT_FOUND (also for malformed ids). */
  async require(db: Reader, tenant: Tenant, endpointId: string): Promise<WebhookEndpointEntity> {
    const endpoint = isValidId('we', endpointId) ? await this.endpoints.findById(db, tenant, endpointId) : null;
    if (!endpoint) throw notFound(endpointId);
    return endpoint;
  }

  /** SSRF guard at registration; the dispatcher checks again at send time. */
  private async checkUrl(tenant: Tenant, value: string): Promise<string> {
    const allowPrivate = this.config.webhookAllowPrivateUrls;
    try {
      const url = checkWebhookUrlSyntax(value, tenant.mode, allowPrivate);
      if (!allowPrivate) await checkResolvedHost(hostOf(url));
      return url.toString();
    } catch (error) {
      // A developer pointing a test endpoint at localhost learns which setting allows it.
      if (error instanceof PrivateWebhookUrlError) {
        throw new ApiError(
          ErrorCode.INVALID_PARAMETER,
          `${error.message}; this deployment refuses those (set WEBHOOK_ALLOW_PRIVATE_URLS=true to allow them, in development and tests only)`,
          'url',
        );
      }
      if (error instanceof UnsafeWebhookUrlError) throw new ApiError(ErrorCode.INVALID_PARAMETER, error.message, 'url');
      throw error;
    }
  }
}

function notFound(endpointId: string): ApiError {
  return new ApiError(ErrorCode.WEBHOOK_ENDPOINT_NOT_FOUND, `No webhook endpoint with id '${endpointId}'`);
}

/** '*' subsumes everything; otherwise the distinct types in the order given. */
function normalizeEvents(events: string[]): string[] {
  return events.includes('*') ? ['*'] : [...new Set(events)];
}
