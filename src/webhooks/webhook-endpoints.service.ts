import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { DataSource } from 'typeorm';
import type { Tenant } from '../auth/tenant';
import { AppConfig } from '../config/app-config';
import { PageResult } from '../envelope/page-result';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { EVENTS_COMMITTED } from '../events/domain-event';
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
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';
import { toWebhookDeliveryResponse, toWebhookEndpointResponse, toWebhookEndpointWithSecret } from './webhook-endpoint.mapper';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { generateWebhookSecret } from './webhook-signature';
import { checkResolvedHost, checkWebhookUrlSyntax, hostOf, UnsafeWebhookUrlError } from './webhook-url-guard';

/** After a rotation the old secret signs alongside the new one this long, so receivers can switch. */
const ROTATION_OVERLAP_MILLISECONDS = 24 * 60 * 60 * 1000;

@Injectable()
export class WebhookEndpointsService {
  constructor(
    private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly emitter: EventEmitter2,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly events: EventsService,
  ) {}

  async create(tenant: Tenant, input: CreateWebhookEndpointDto): Promise<WebhookEndpointWithSecretResponseDto> {
    const url = await this.checkUrl(tenant, input.url);
    const endpoint = await this.endpoints.save(
      tenant,
      Object.assign(new WebhookEndpointEntity(), {
      id: generateId('we'),
      merchant_id: tenant.merchantId,
      mode: tenant.mode,
      url,
      description: input.description ?? null,
      enabled_events: normalizeEvents(input.enabled_events),
      disabled: false,
      disabled_reason: null,
      secret: generateWebhookSecret(),
      previous_secret: null,
      previous_secret_expires_at: null,
    }),
    );
    return toWebhookEndpointWithSecret(endpoint);
  }

  async list(tenant: Tenant, query: PaginationQueryDto): Promise<PageResult<WebhookEndpointResponseDto>> {
    const page = toPageRequest(query);
    const { rows, total } = await this.endpoints.list(tenant, page);
    return toPageResult(rows, page, (row) => row.created_at, (row) => toWebhookEndpointResponse(row), total);
  }

  async get(tenant: Tenant, endpointId: string): Promise<WebhookEndpointResponseDto> {
    return toWebhookEndpointResponse(await this.require(tenant, endpointId));
  }

  async update(tenant: Tenant, endpointId: string, input: UpdateWebhookEndpointDto): Promise<WebhookEndpointResponseDto> {
    const endpoint = await this.require(tenant, endpointId);
    if (input.url !== undefined) endpoint.url = await this.checkUrl(tenant, input.url);
    if (input.enabled_events !== undefined) endpoint.enabled_events = normalizeEvents(input.enabled_events);
    if (input.description !== undefined) endpoint.description = input.description;
    if (input.disabled !== undefined) {
      endpoint.disabled = input.disabled;
      endpoint.disabled_reason = input.disabled ? 'manual' : null;
    }
    const saved = await this.endpoints.save(tenant, endpoint);
    // Re-enabled endpoints have queued deliveries waiting.
    if (input.disabled === false) this.emitter.emit(EVENTS_COMMITTED);
    return toWebhookEndpointResponse(saved);
  }

  async delete(tenant: Tenant, endpointId: string): Promise<DeletedWebhookEndpointResponseDto> {
    await this.require(tenant, endpointId);
    await this.endpoints.delete(tenant, endpointId);
    return { id: endpointId, deleted: true };
  }

  async rotateSecret(tenant: Tenant, endpointId: string): Promise<WebhookEndpointWithSecretResponseDto> {
    const endpoint = await this.require(tenant, endpointId);
    endpoint.previous_secret = endpoint.secret;
    endpoint.previous_secret_expires_at = new Date(Date.now() + ROTATION_OVERLAP_MILLISECONDS);
    endpoint.secret = generateWebhookSecret();
    return toWebhookEndpointWithSecret(await this.endpoints.save(tenant, endpoint));
  }

  async listDeliveries(tenant: Tenant, endpointId: string, query: PaginationQueryDto): Promise<PageResult<WebhookDeliveryResponseDto>> {
    await this.require(tenant, endpointId);
    const page = toPageRequest(query);
    const { rows, total } = await this.deliveries.listAttempts(tenant, endpointId, page);
    return toPageResult(rows, page, (row) => row.attempted_at, toWebhookDeliveryResponse, total);
  }

  /** Queues the event again for one endpoint, or for every enabled endpoint subscribed to its type. */
  async redeliver(tenant: Tenant, eventId: string, input: RedeliverEventDto): Promise<RedeliveryResponseDto> {
    const event = await this.events.require(tenant, eventId);
    // Read before the transaction: the embedded database has one connection, which the transaction holds.
    const chosen = input.endpoint_id ? await this.require(tenant, input.endpoint_id) : null;
    const endpointIds = await this.dataSource.transaction(async (manager) => {
      const targets = chosen ? [chosen] : await this.endpoints.findSubscribed(manager, tenant, event.type);
      const ids = targets.map((endpoint) => endpoint.id);
      await this.deliveries.enqueue(manager, tenant, event.id, ids);
      return ids;
    });
    this.emitter.emit(EVENTS_COMMITTED);
    return { event_id: event.id, endpoint_ids: endpointIds };
  }

  /** The endpoint of this tenant and mode, or 404 WEBHOOK_ENDPOINT_NOT_FOUND (also for malformed ids). */
  private async require(tenant: Tenant, endpointId: string): Promise<WebhookEndpointEntity> {
    const endpoint = isValidId('we', endpointId) ? await this.endpoints.findById(tenant, endpointId) : null;
    if (!endpoint) throw new ApiError(ErrorCode.WEBHOOK_ENDPOINT_NOT_FOUND, `No webhook endpoint with id '${endpointId}'`);
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
      if (error instanceof UnsafeWebhookUrlError) throw new ApiError(ErrorCode.INVALID_PARAMETER, error.message, 'url');
      throw error;
    }
  }
}

/** '*' subsumes everything; otherwise the distinct types in the order given. */
function normalizeEvents(events: string[]): string[] {
  return events.includes('*') ? ['*'] : [...new Set(events)];
}
