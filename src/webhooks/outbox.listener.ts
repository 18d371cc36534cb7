import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { DOMAIN_EVENT, DomainEvent } from '../events/domain-event';
import { EventsRepository } from './events.repository';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';

/**
 * Writes each domain event into the outbox, and queues its deliveries to the subscribed
 * endpoints, in the publishing transaction: all commit or roll back with the change.
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
    const saved = await this.events.insertMany(event.tx, event.tenant, event.type, event.objects);
    const subscribed = await this.endpoints.findSubscribed(event.tx, event.tenant, event.type);
    await this.deliveries.enqueue(
      event.tx,
      event.tenant,
      saved.map((savedEvent) => savedEvent.id),
      subscribed.map((endpoint) => endpoint.id),
    );
  }
}
