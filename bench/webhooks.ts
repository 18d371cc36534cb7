import type { Client } from 'pg';
import { ADMIN_TOKEN, api, Adapter, Server, startCpuProbe } from './harness';
import { startWebhookSink } from './scenarios';

/**
 * Issue 26's webhook target: one merchant's burst of events reaches one endpoint whose receiver
 * answers after RECEIVER_DELAY_MILLISECONDS, at ≥ 500 deliveries/s. The burst is an import of
 * `events` rows (one entitlement.created each, written in batches of 500): the events exist
 * almost at once, so the rate measured is the dispatcher's, not the writes'. Every event must
 * arrive, and the events of one object in order.
 */
export const RECEIVER_DELAY_MILLISECONDS = 50;

export interface WebhookBurstResult {
  adapter: Adapter;
  events: number;
  receiverDelayMilliseconds: number;
  /** Deliveries received ÷ seconds from the first to the last. */
  deliveriesPerSecond: number;
  /** From the import's POST to the last delivery. */
  totalSeconds: number;
  delivered: number;
  duplicates: number;
  /** Objects whose events arrived out of creation order (must be 0). */
  outOfOrderObjects: number;
  /** CPU per delivery, in µs, of the server (import included) and of its database's backends. */
  serverCpuMicrosecondsPerEvent: number;
  databaseCpuMicrosecondsPerEvent: number;
}

/** Where the burst's CPU is measured: the database's name on the server `admin` is connected to. */
export interface DatabaseProbe {
  admin: Client;
  database: string;
}

export async function measureWebhookBurst(server: Server, adapter: Adapter, events: number, probe: DatabaseProbe): Promise<WebhookBurstResult> {
  const sink = await startWebhookSink({ delayMilliseconds: RECEIVER_DELAY_MILLISECONDS, record: true });
  try {
    const merchant = await api<{ id: string }>(server.baseUrl, 'POST', '/admin/v1/merchants', ADMIN_TOKEN, { name: `Webhook burst (${adapter})`, plan: 'enterprise' });
    const key = (await api<{ key: string }>(server.baseUrl, 'POST', `/admin/v1/merchants/${merchant.id}/api-keys`, ADMIN_TOKEN, { mode: 'live', scopes: ['*'] })).key;
    await api(server.baseUrl, 'POST', '/v1/products', key, { name: 'Burst product', store_product_id: 'burst_sku', entitlement_type: 'permanent' });
    await api(server.baseUrl, 'POST', '/v1/webhook-endpoints', key, { url: sink.url, enabled_events: ['entitlement.created'] });
    const lines = ['store_customer_id,store_product_id'];
    for (let row = 1; row <= events; row += 1) lines.push(`burst_${adapter}_${row},burst_sku`);
    const cpu = await startCpuProbe(server.pid, probe.admin, probe.database);
    const started = performance.now();
    const response = await fetch(`${server.baseUrl}/v1/entitlement-imports`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'text/csv' },
      body: `${lines.join('\n')}\n`,
    });
    if (!response.ok) throw new Error(`import → ${response.status} ${await response.text()}`);
    const deadline = Date.now() + 120_000;
    while (sink.received.length < events && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const used = await cpu.stop();
    const received = sink.received.map((entry) => JSON.parse(entry.body) as { id: string; created_at: string; data: { object: { id: string } } });
    const ids = new Set(received.map((event) => event.id));
    const lastSeenByObject = new Map<string, string>();
    const outOfOrder = new Set<string>();
    for (const event of received) {
      const previous = lastSeenByObject.get(event.data.object.id);
      if (previous !== undefined && previous > event.id) outOfOrder.add(event.data.object.id);
      lastSeenByObject.set(event.data.object.id, event.id);
    }
    const first = sink.received[0]?.at ?? started;
    const last = sink.received[sink.received.length - 1]?.at ?? started;
    return {
      adapter,
      events,
      receiverDelayMilliseconds: RECEIVER_DELAY_MILLISECONDS,
      deliveriesPerSecond: Math.round(received.length / Math.max((last - first) / 1000, 0.001)),
      totalSeconds: Math.round((last - started) / 10) / 100,
      delivered: ids.size,
      duplicates: received.length - ids.size,
      outOfOrderObjects: outOfOrder.size,
      serverCpuMicrosecondsPerEvent: Math.round((used.serverMilliseconds * 1000) / events),
      databaseCpuMicrosecondsPerEvent: Math.round((used.databaseMilliseconds * 1000) / events),
    };
  } finally {
    await sink.close();
  }
}
