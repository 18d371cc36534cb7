import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { DOMAIN_EVENT, DomainEvent } from '../events/domain-event';
import { OutboxRepository } from './outbox.repository';

/**
 * Writes each domain event into the outbox, and queues its deliveries to the subscribed
 * endpoints, in the publishing transaction: all commit or roll back with the change.
 */
@Injectable()
export class OutboxListener {
  constructor(private readonly outbox: OutboxRepository) {}

  @OnEvent(DOMAIN_EVENT, { promisify: true, suppressErrors: false })
  async record(event: DomainEvent): Promise<void> {
    await this.outbox.record(event.tx, event.tenant, event.type, event.objects);
  }
}
