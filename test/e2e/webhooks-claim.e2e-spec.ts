import { DataSource } from 'typeorm';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { deliveryObjectId } from '../../src/webhooks/outbox.repository';
import { CLAIM_SQL, ClaimBounds, WebhookDeliveriesRepository } from '../../src/webhooks/webhook-deliveries.repository';
import { WebhookDeliveryEntity } from '../../src/webhooks/webhook-delivery.entity';
import { WebhookDispatcher } from '../../src/webhooks/webhook-dispatcher.service';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

/** The states a delivery can be in, as the SQL that puts one there. */
const STATES = {
  untried: `status = 'pending', attempt_count = 0, locked_until = NULL, next_attempt_at = now() - interval '1 minute'`,
  firstAttemptInFlight: `status = 'pending', attempt_count = 0, locked_until = now() + interval '1 hour', next_attempt_at = now() - interval '1 minute'`,
  retryInFlight: `status = 'pending', attempt_count = 2, locked_until = now() + interval '1 hour', next_attempt_at = now() - interval '1 minute'`,
  untriedLeaseLapsed: `status = 'pending', attempt_count = 0, locked_until = now() - interval '1 hour', next_attempt_at = now() - interval '2 hours'`,
  retryLeaseLapsed: `status = 'pending', attempt_count = 1, locked_until = now() - interval '1 hour', next_attempt_at = now() - interval '2 hours'`,
  retryDue: `status = 'pending', attempt_count = 1, locked_until = NULL, next_attempt_at = now() - interval '1 minute'`,
  retryLater: `status = 'pending', attempt_count = 1, locked_until = NULL, next_attempt_at = now() + interval '1 hour'`,
  succeeded: `status = 'succeeded', attempt_count = 1, locked_until = NULL`,
  failed: `status = 'failed', attempt_count = 8, locked_until = NULL`,
} as const;
type State = keyof typeof STATES;
const STATE_NAMES = Object.keys(STATES) as State[];

interface DeliveryRow {
  id: string;
  endpoint_id: string;
  object_id: string;
  event_id: string;
  pending: boolean;
  untried: boolean;
  leased: boolean;
  lease_live: boolean;
  due: boolean;
}

/** Deterministic pseudo-random numbers (mulberry32), so a failing round can be replayed. */
function randomNumbers(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The rule (DESIGN §8), stated plainly. A delivery blocks the later deliveries of its object to its
 * endpoint while it is pending and untried or leased. A pending delivery is claimable when it is
 * due, not in flight (a live lease), its endpoint is enabled, no earlier delivery of its object to
 * its endpoint blocks, and it is a retry or among its endpoint's first `window` blocking
 * deliveries; each endpoint gets the oldest claimable ones, as many as `concurrency` less its
 * deliveries in flight.
 */
function claimable(rows: DeliveryRow[], enabledEndpoints: Set<string>, concurrency: number, window: number): string[] {
  const byId = (left: DeliveryRow, right: DeliveryRow) => Number(BigInt(left.id) - BigInt(right.id));
  const blocks = (row: DeliveryRow) => row.pending && (row.untried || row.leased);
  const claimed: string[] = [];
  for (const endpointId of enabledEndpoints) {
    const queue = rows.filter((row) => row.endpoint_id === endpointId).sort(byId);
    const free = concurrency - queue.filter((row) => row.pending && row.lease_live).length;
    const inWindow = new Set(queue.filter(blocks).slice(0, window).map((row) => row.id));
    const eligible = queue.filter(
      (row) =>
        row.pending &&
        row.due &&
        !row.lease_live &&
        (inWindow.has(row.id) || !blocks(row)) &&
        !queue.some((earlier) => blocks(earlier) && earlier.object_id === row.object_id && BigInt(earlier.id) < BigInt(row.id)),
    );
    claimed.push(...eligible.slice(0, Math.max(free, 0)).map((row) => row.id));
  }
  return claimed.sort((left, right) => Number(BigInt(left) - BigInt(right)));
}

interface PlanNode {
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Join Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** Rows every node of an executed plan produced or threw away: the work the statement did. */
function rowsExamined(node: PlanNode): number {
  const own =
    (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1) +
    (node['Rows Removed by Filter'] ?? 0) +
    (node['Rows Removed by Join Filter'] ?? 0) +
    (node['Rows Removed by Index Recheck'] ?? 0);
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsExamined(child), 0);
}

describe('webhooks: claiming due deliveries', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let receiver: WebhookReceiver;
  let dataSource: DataSource;

  async function createEndpoint(path: string): Promise<string> {
    const response = await testApp.http
      .post('/v1/webhook-endpoints')
      .set(bearer(tenant.testKey))
      .send({ url: receiver.url(path), enabled_events: ['*'] })
      .expect(201);
    return (response.body.data as { id: string }).id;
  }

  /** `objectOf(index)` is the id of the index-th event's object (undefined: an object without an id). */
  async function publish(count: number, objectOf: (index: number) => string | undefined): Promise<void> {
    await testApp.app.get(UnitOfWork).run(async ({ publish: record }) => {
      for (let index = 0; index < count; index += 1) {
        const id = objectOf(index);
        await record('product.updated', { merchantId: tenant.merchantId, mode: 'test' }, id === undefined ? { sequence: index } : { id, sequence: index });
      }
    });
  }

  const claim = (bounds: Partial<ClaimBounds>) =>
    testApp.app.get(WebhookDeliveriesRepository).claimDueAcrossTenants({ limit: 10_000, leaseMilliseconds: 60_000, endpointConcurrency: 10, window: 1_000, ...bounds });

  async function deliveriesOf(endpointIds: string[]): Promise<DeliveryRow[]> {
    return dataSource.query(
      `SELECT id::text, endpoint_id, object_id, event_id, status = 'pending' AS pending, attempt_count = 0 AS untried, locked_until IS NOT NULL AS leased,
         coalesce(locked_until >= now(), false) AS lease_live, next_attempt_at <= now() AS due
       FROM webhook_deliveries WHERE endpoint_id = ANY($1) ORDER BY webhook_deliveries.id`,
      [endpointIds],
    );
  }

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    testApp = await createTestApp();
    // Claims here are made by the test alone.
    await testApp.app.get(WebhookDispatcher).stop();
    dataSource = testApp.app.get(DataSource);
    tenant = await testApp.createTenant('pro');
  });
  afterAll(async () => {
    // The run's database is shared: leave no queue for the next suite's dispatcher to send.
    await dataSource.query('DELETE FROM webhook_deliveries WHERE merchant_id = $1', [tenant.merchantId]);
    await testApp.close();
    await receiver.close();
  });

  it('claims exactly what the ordering rule allows, over 80 random queues of four endpoints', async () => {
    const endpointIds = [await createEndpoint('/a'), await createEndpoint('/b'), await createEndpoint('/c'), await createEndpoint('/disabled')];
    // Ten events of four objects (object 3 appears once), one of them an object without an id.
    const objects = ['prod_claim_0', 'prod_claim_1', 'prod_claim_0', 'prod_claim_2', undefined, 'prod_claim_1', 'prod_claim_0', 'prod_claim_3', 'prod_claim_2', 'prod_claim_1'];
    await publish(objects.length, (index) => objects[index]);
    await testApp.http.patch(`/v1/webhook-endpoints/${endpointIds[3]}`).set(bearer(tenant.testKey)).send({ disabled: true }).expect(200);
    const rows = await deliveriesOf(endpointIds);
    expect(rows).toHaveLength(40);
    // Every delivery is ordered by its event's object, or by its event alone when the object has no id.
    const events = await dataSource.query(`SELECT id, data FROM events WHERE id = ANY($1)`, [[...new Set(rows.map((row) => row.event_id))]]);
    const objectOfEvent = new Map((events as Array<{ id: string; data: { object: Record<string, unknown> } }>).map((event) => [event.id, deliveryObjectId(event.data.object, event.id)]));
    expect(rows.map((row) => row.object_id)).toEqual(rows.map((row) => objectOfEvent.get(row.event_id)));
    expect(new Set(rows.map((row) => row.object_id)).size).toBe(5);
    const enabled = new Set(endpointIds.slice(0, 3));
    const random = randomNumbers(20261126);
    let claimedInAll = 0;
    const limitedByConcurrency = new Set<number>();
    for (let round = 0; round < 80; round += 1) {
      // Half the rounds lean on untried deliveries (long ordered runs), half are anything goes.
      const states = rows.map(() => (round % 2 === 0 && random() < 0.5 ? 'untried' : STATE_NAMES[Math.floor(random() * STATE_NAMES.length)]));
      const concurrency = [1, 2, 3, 10][Math.floor(random() * 4)];
      const window = [1, 2, 5, 1_000][Math.floor(random() * 4)];
      for (const state of STATE_NAMES) {
        const ids = rows.filter((_, index) => states[index] === state).map((row) => row.id);
        if (ids.length > 0) await dataSource.query(`UPDATE webhook_deliveries SET ${STATES[state]} WHERE id = ANY($1::bigint[])`, [ids]);
      }
      const current = await deliveriesOf(endpointIds);
      const expected = claimable(current, enabled, concurrency, window);
      const claimed = await claim({ endpointConcurrency: concurrency, window });
      const ours = claimed.filter((delivery) => endpointIds.includes(delivery.endpoint.id)).map((delivery) => delivery.id);
      expect({ round, states, concurrency, window, claimed: ours }).toEqual({ round, states, concurrency, window, claimed: expected });
      claimedInAll += ours.length;
      if (claimable(current, enabled, 1_000, window).length > expected.length) limitedByConcurrency.add(concurrency);
    }
    // The rounds exercised the rule rather than agreeing on empty claims, the bound included.
    expect(claimedInAll).toBeGreaterThan(80);
    expect(limitedByConcurrency.size).toBeGreaterThanOrEqual(2);
  });

  it('keeps the bound and the order when two instances claim at the same moment', async () => {
    const endpointId = await createEndpoint('/concurrent');
    // Twenty objects with two events each: the first of each is claimable, the second waits for it.
    await publish(40, (index) => `prod_pair_${index % 20}`);
    const both = await Promise.all([claim({ endpointConcurrency: 7 }), claim({ endpointConcurrency: 7 })]);
    const ours = both.map((claimed) => claimed.filter((delivery) => delivery.endpoint.id === endpointId));
    const ids = ours.flat().map((delivery) => delivery.id);
    expect(ids).toHaveLength(7);
    expect(new Set(ids).size).toBe(7);
    // Each objects' first event: the 7 oldest deliveries of the endpoint.
    const queued = await deliveriesOf([endpointId]);
    expect([...ids].sort((left, right) => Number(BigInt(left) - BigInt(right)))).toEqual(queued.slice(0, 7).map((row) => row.id));
    await dataSource.query('DELETE FROM webhook_deliveries WHERE endpoint_id = $1', [endpointId]);
  });

  it('examines rows in proportion to the queue, not its square, behind a failing endpoint', async () => {
    const endpointId = await createEndpoint('/backlog');
    // One object: each of its events waits for the one before.
    await publish(2_000, () => 'prod_backlog');
    // The first 1,000 failed once and wait for their retry; the next 1,000 are untried behind them.
    const ids = (await dataSource.getRepository(WebhookDeliveryEntity).find({ where: { endpoint_id: endpointId }, order: { id: 'ASC' }, select: { id: true } })).map(
      (delivery) => delivery.id,
    );
    expect(ids).toHaveLength(2_000);
    await dataSource.query(`UPDATE webhook_deliveries SET ${STATES.retryLater} WHERE id = ANY($1::bigint[])`, [ids.slice(0, 1_000)]);
    await dataSource.query('ANALYZE webhook_deliveries');
    const queued = await dataSource.getRepository(WebhookDeliveryEntity).count();
    const runner = dataSource.createQueryRunner();
    let examined: number;
    let claimedIds: string[];
    try {
      await runner.startTransaction();
      // $1 limit, $2 lease, $3 concurrency per endpoint, $4 window.
      const [{ 'QUERY PLAN': plans }] = (await runner.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${CLAIM_SQL}`, [20, 60_000, 10, 1_000])) as Array<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>;
      examined = rowsExamined(plans[0].Plan);
      claimedIds = (await runner.query(`SELECT id::text FROM webhook_deliveries WHERE endpoint_id = $1 AND locked_until IS NOT NULL`, [endpointId])).map(
        (row: { id: string }) => row.id,
      );
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
    // Only the head of the untried run is claimable: ordering holds behind the waiting retries.
    expect(claimedIds).toEqual([ids[1_000]]);
    // Checking each of the 1,000 untried against its 1,000 earlier deliveries examined half a
    // million rows; the claim now reads each row at most a few times.
    expect(examined).toBeLessThan(5 * queued);
    expect(await dataSource.getRepository(WebhookDeliveryEntity).count({ where: { endpoint_id: endpointId, status: 'pending' } })).toBe(2_000);
  });
});
