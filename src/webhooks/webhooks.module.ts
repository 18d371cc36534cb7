import { Module } from '@nestjs/common';
import { EventsRepository } from './events.repository';
import { OutboxListener } from './outbox.listener';
import { WebhookDispatcher } from './webhook-dispatcher.service';

@Module({
  providers: [EventsRepository, OutboxListener, WebhookDispatcher],
  exports: [],
})
export class WebhooksModule {}
