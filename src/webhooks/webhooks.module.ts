import { WebhookDeliveriesController } from './webhook-deliveries.controller';
import { Module } from '@nestjs/common';
import { EventRetention } from './event-retention';
import { EventRetentionRepository } from './event-retention.repository';
import { EventsController } from './events.controller';
import { EventsRepository } from './events.repository';
import { EventsService } from './events.service';
import { OutboxListener } from './outbox.listener';
import { OutboxRepository } from './outbox.repository';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDispatcher } from './webhook-dispatcher.service';
import { WebhookEndpointsController } from './webhook-endpoints.controller';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { WebhookTestSends } from './webhook-test-sends.service';

@Module({
  controllers: [EventsController, WebhookEndpointsController, WebhookDeliveriesController],
  providers: [
    EventsRepository,
    EventsService,
    WebhookEndpointsRepository,
    WebhookDeliveriesRepository,
    WebhookEndpointsService,
    WebhookTestSends,
    OutboxListener,
    OutboxRepository,
    WebhookDispatcher,
    EventRetentionRepository,
    EventRetention,
  ],
  exports: [EventsService],
})
export class WebhooksModule {}
