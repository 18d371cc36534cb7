import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import type { Operation } from '../database/operation';
import { UnitOfWork } from '../database/unit-of-work';
import { generateId } from '../ids/id';
import { WebhookDeliveryResponseDto } from './dto/webhook-endpoint-response.dto';
import { toEventResponse } from './event.mapper';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { toWebhookDeliveryResponse, toWebhookEndpointResponse } from './webhook-endpoint.mapper';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { isSuccessStatus, WebhookSender } from './webhook-sender';
import { TEST_EVENT_TYPE } from './test-event-type';


/**
 * POST /v1/webhook-endpoints/{id}/test: one event sent now to that endpoint only (enabled or not),
 * signed and checked like every delivery, its attempt recorded beside the others. It is no
 * delivery: not queued, not retried, and the event is not in the event log.
 */
@Injectable()
export class WebhookTestSends implements BeforeApplicationShutdown {
  private readonly sender = new WebhookSender();

  constructor(
    private readonly endpoints: WebhookEndpointsService,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async send(operation: Operation, endpointId: string): Promise<WebhookDeliveryResponseDto> {
    const { tenant } = operation;
    const endpoint = await this.endpoints.require(this.unitOfWork.pool, tenant, endpointId);
    const attemptedAt = new Date();
    const event = { id: generateId('evt'), type: TEST_EVENT_TYPE, created_at: attemptedAt, mode: tenant.mode, data: { object: { ...toWebhookEndpointResponse(endpoint) } } };
    // Sent before the transaction: a slow receiver holds no connection of the pool.
    const outcome = await this.sender.sendSigned(endpoint, tenant.mode, event.id, JSON.stringify(toEventResponse(event)), attemptedAt);
    const succeeded = isSuccessStatus(outcome.statusCode);
    return this.unitOfWork.run(operation, async (tx) =>
      toWebhookDeliveryResponse(
        await this.deliveries.recordLoneAttempt(tx, tenant, {
          id: generateId('wd'),
          endpoint_id: endpoint.id,
          event_id: event.id,
          event_type: TEST_EVENT_TYPE,
          attempt: 1,
          succeeded,
          status_code: outcome.statusCode,
          error: outcome.error ?? (succeeded ? null : `HTTP ${outcome.statusCode}`),
          duration_ms: Math.round(outcome.durationMilliseconds),
          response_body: outcome.responseBody,
          attempted_at: attemptedAt,
          next_attempt_at: null,
        }),
      ),
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.sender.close();
  }
}
