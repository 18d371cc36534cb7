import { DataSource, In } from 'typeorm';
import { WebhookDeliveryEntity } from '../../src/webhooks/webhook-delivery.entity';
import { eventually } from './eventually';
import type { TestApp } from './test-app';

export function pendingDeliveries(testApp: TestApp, endpointIds: string[]): Promise<number> {
  return testApp.app
    .get(DataSource)
    .manager.count(WebhookDeliveryEntity, { where: { endpoint_id: In(endpointIds), status: 'pending' } });
}

/** Waits until no delivery of these endpoints is pending (delivered, or given up), with a deadline. */
export async function untilDeliveriesSettled(testApp: TestApp, endpointIds: string[], withinMilliseconds = 60_000): Promise<void> {
  await eventually(async () => (await pendingDeliveries(testApp, endpointIds)) === 0, withinMilliseconds, 50);
}
