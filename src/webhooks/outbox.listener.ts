import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { DOMAIN_EVENT, DomainEvent } from '../events/domain-event';
import { EventsRepository } from './events.repository';

/** Writes each domain event into the outbox with the publishing transaction's manager. */
@Injectable()
export class OutboxListener {
  constructor(private readonly events: EventsRepository) {}

  @OnEvent(DOMAIN_EVENT, { promisify: true, suppressErrors: false })
  async record(event: DomainEvent): Promise<void> {
    await this.events.insert(event.manager, event.tenant, event.type, event.object);
  }
}
