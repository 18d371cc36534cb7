import { Injectable, Logger } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { EVENTS_COMMITTED } from '../events/domain-event';

/**
 * Woken after every commit that wrote outbox rows. Delivery to webhook endpoints is not built
 * yet (events are recorded and listed); this is where the poller will claim due deliveries.
 */
@Injectable()
export class WebhookDispatcher {
  private readonly logger = new Logger(WebhookDispatcher.name);
  private wakeCount = 0;

  @OnEvent(EVENTS_COMMITTED)
  wake(): void {
    this.wakeCount += 1;
    this.logger.debug(`dispatcher woken (${this.wakeCount})`);
  }

  get timesWoken(): number {
    return this.wakeCount;
  }
}
