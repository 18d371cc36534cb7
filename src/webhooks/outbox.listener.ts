import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { DOMAIN_EVENT, DomainEvent } from '../events/domain-event';
import { EventsRepository } from './events.repository';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';

/**
 * Writes each domain event into the outbox, and queues its deliveries to the subscribed
 * endpoints, with the publishing transaction's manager: all commit or roll back with the change.
 */
@Injectable()
export class OutboxListener {
  constructor(
    private readonly events: EventsRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
  ) {}

  @OnEvent(DOMAIN_EVENT, { promisify: true, suppressErrors: false })
  async record(event: DomainEvent): Promise<void> {
    const saved = await this.events.insert(event.manager, event.tenant, event.type, event.object);
    const subscribed = await this.endpoints.findSubscribed(event.manager, event.tenant, event.type);
    await this.deliveries.enqueue(
      event.manager,
      event.tenant,
      saved.id,
      subscribed.map((endpoint) => endpoint.id),
    );
  }
}
