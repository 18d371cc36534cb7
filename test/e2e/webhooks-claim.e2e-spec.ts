import { DataSource } from 'typeorm';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { CLAIM_SQL, WebhookDeliveriesRepository } from '../../src/webhooks/webhook-deliveries.repository';
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
 * The rule, stated plainly: a pending delivery is claimable when it is due, not in flight, its
 * endpoint is enabled, and no earlier pending delivery of its endpoint is untried or leased.
 */
function claimable(rows: DeliveryRow[], enabledEndpoints: Set<string>): string[] {
  return rows
    .filter(
      (row) =>
        row.pending &&
        row.due &&
        !row.lease_live &&
        enabledEndpoints.has(row.endpoint_id) &&
        !rows.some((earlier) => earlier.endpoint_id === row.endpoint_id && earlier.pending && BigInt(earlier.id) < BigInt(row.id) && (earlier.untried || earlier.leased)),
    )
    .map((row) => row.id)
    .sort((left, right) => Number(BigInt(left) - BigInt(right)));
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

  async function publish(count: number): Promise<void> {
    await testApp.app.get(UnitOfWork).run(async ({ publish: record }) => {
      for (let index = 0; index < count; index += 1) {
        await record('product.updated', { merchantId: tenant.merchantId, mode: 'test' }, { id: `prod_claim_${index}` });
      }
    });
  }

  async function deliveriesOf(endpointIds: string[]): Promise<DeliveryRow[]> {
    return dataSource.query(
      `SELECT id::text, endpoint_id, status = 'pending' AS pending, attempt_count = 0 AS untried, locked_until IS NOT NULL AS leased,
         coalesce(locked_until >= now(), false) AS lease_live, next_attempt_at <= now() AS due
       FROM webhook_deliveries WHERE endpoint_id = ANY($1) ORDER BY id`,
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

  it('claims exactly what the ordering rule allows, over 60 random queues of four endpoints', async () => {
    const endpointIds = [await createEndpoint('/a'), await createEndpoint('/b'), await createEndpoint('/c'), await createEndpoint('/disabled')];
    await publish(7);
    await testApp.http.patch(`/v1/webhook-endpoints/${endpointIds[3]}`).set(bearer(tenant.testKey)).send({ disabled: true }).expect(200);
    const rows = await deliveriesOf(endpointIds);
    expect(rows).toHaveLength(28);
    const enabled = new Set(endpointIds.slice(0, 3));
    const random = randomNumbers(20261125);
    let claimedInAll = 0;
    for (let round = 0; round < 60; round += 1) {
      // Half the rounds lean on untried deliveries (long ordered runs), half are anything goes.
      const states = rows.map(() => (round % 2 === 0 && random() < 0.5 ? 'untried' : STATE_NAMES[Math.floor(random() * STATE_NAMES.length)]));
      for (const state of STATE_NAMES) {
        const ids = rows.filter((_, index) => states[index] === state).map((row) => row.id);
        if (ids.length > 0) await dataSource.query(`UPDATE webhook_deliveries SET ${STATES[state]} WHERE id = ANY($1::bigint[])`, [ids]);
      }
      const expected = claimable(await deliveriesOf(endpointIds), enabled);
      const claimed = await testApp.app.get(WebhookDeliveriesRepository).claimDueAcrossTenants(10_000, 60_000);
      const ours = claimed.filter((delivery) => endpointIds.includes(delivery.endpoint.id)).map((delivery) => delivery.id);
      expect({ round, states, claimed: ours }).toEqual({ round, states, claimed: expected });
      claimedInAll += ours.length;
    }
    // The rounds exercised the rule rather than agreeing on empty claims.
    expect(claimedInAll).toBeGreaterThan(60);
  });

  it('examines rows in proportion to the queue, not its square, behind a failing endpoint', async () => {
    const endpointId = await createEndpoint('/backlog');
    await publish(2_000);
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
      const [{ 'QUERY PLAN': plans }] = (await runner.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${CLAIM_SQL}`, [20, 60_000])) as Array<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>;
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
