import { eventually } from '../support/eventually';
import { PostgresCluster } from '../support/postgres-cluster';
import { describeNeeding } from '../support/requirements';
import { bearer, createTestApp, TEST_ADMIN_TOKEN, TestApp, TestTenant } from '../support/test-app';

/**
 * A read replica, proved (DESIGN §15, issue 36): the test makes a primary cluster of its own with
 * initdb and a hot standby streaming from it with pg_basebackup, each on its own loopback port
 * (Debian's binaries, run as the postgres user; the machine's cluster is not touched), and boots
 * the app with DATABASE_URL on the primary and DATABASE_READ_URL on the replica. The replica's
 * pg_stat_statements shows the lists, the event log and usage ran there and the check never did;
 * with the replica's replay paused, a new grant is seen by the check and by a read of the
 * entitlement at once, and by the list only once replay resumes: what the documents say may lag.
 */
describeNeeding(['postgresql-binaries'], 'a streaming read replica for lists (DATABASE_READ_URL)', () => {
  const DATABASE = 'entitlements';
  let primary: PostgresCluster;
  let replica: PostgresCluster;
  let testApp: TestApp;
  let tenant: TestTenant;

  /** Calls of statements whose text matches `pattern` (a regular expression, case-insensitive) on one cluster. */
  async function calls(cluster: PostgresCluster, pattern: string): Promise<number> {
    const [row] = await cluster.query<{ calls: number }>('postgres', 'SELECT coalesce(sum(calls), 0)::int AS calls FROM pg_stat_statements WHERE query ~* $1', [pattern]);
    return row.calls;
  }
  const CHECK_STATEMENT = 'ORDER BY e\\.expires_at DESC NULLS FIRST';

  beforeAll(async () => {
    primary = await PostgresCluster.primary();
    await primary.query('postgres', `CREATE DATABASE ${DATABASE}`);
    // Created on the primary, it reaches the replica with everything else.
    await primary.query('postgres', 'CREATE EXTENSION pg_stat_statements');
    replica = await PostgresCluster.replicaOf(primary);
    testApp = await createTestApp({ DATABASE_URL: primary.url(DATABASE), DATABASE_READ_URL: replica.url(DATABASE) });
    tenant = await testApp.createTenant('pro');
  }, 300_000);

  afterAll(async () => {
    await testApp?.close();
    await replica?.stop();
    await primary?.stop();
  });

  async function grant(productId: string, storeCustomerId: string): Promise<string> {
    const answer = await testApp.http.post('/v1/entitlements').set(bearer(tenant.testKey)).send({ product_id: productId, store_customer_id: storeCustomerId });
    expect(answer.status).toBe(201);
    return answer.body.data.id as string;
  }

  const listed = async (productId: string): Promise<string[]> => {
    const answer = await testApp.http.get(`/v1/entitlements?product_id=${productId}`).set(bearer(tenant.testKey));
    expect(answer.status).toBe(200);
    return (answer.body.data as Array<{ id: string }>).map((item) => item.id);
  };

  const entitled = async (productId: string, storeCustomerId: string): Promise<boolean> => {
    const answer = await testApp.http.get(`/v1/entitlements/check?store_customer_id=${storeCustomerId}&product_id=${productId}`).set(bearer(tenant.testKey));
    expect(answer.status).toBe(200);
    return answer.body.data.entitled as boolean;
  };

  it('serves the lists, the event log and usage from the replica, and the check from the primary', async () => {
    const product = await testApp.http.post('/v1/products').set(bearer(tenant.testKey)).send({ name: 'Replicated', entitlement_type: 'permanent' });
    expect(product.status).toBe(201);
    const productId = product.body.data.id as string;
    const entitlementId = await grant(productId, 'replica_customer');
    // The grant reaches the replica within the replication delay.
    await eventually(async () => (await listed(productId)).includes(entitlementId), 30_000, 100);

    const checksBefore = { primary: await calls(primary, CHECK_STATEMENT), replica: await calls(replica, CHECK_STATEMENT) };
    const eventsBefore = await calls(replica, 'from\\s+"?events"?');
    const productsBefore = await calls(replica, 'from\\s+"?products"?');
    const customersBefore = await calls(replica, 'from\\s+"?customers"?');
    const usageBefore = await calls(replica, 'from\\s+"?bandwidth_usage"?');
    for (let index = 0; index < 5; index += 1) expect(await entitled(productId, 'replica_customer')).toBe(true);
    for (const path of ['/v1/events', '/v1/products', '/v1/customers']) expect((await testApp.http.get(path).set(bearer(tenant.testKey))).status).toBe(200);
    expect((await testApp.http.get(`/admin/v1/merchants/${tenant.merchantId}/usage`).set(bearer(TEST_ADMIN_TOKEN))).status).toBe(200);

    expect(await calls(replica, CHECK_STATEMENT)).toBe(checksBefore.replica);
    expect(checksBefore.replica).toBe(0);
    expect(await calls(primary, CHECK_STATEMENT)).toBeGreaterThanOrEqual(checksBefore.primary + 5);
    expect(await calls(replica, 'from\\s+"?events"?')).toBeGreaterThan(eventsBefore);
    expect(await calls(replica, 'from\\s+"?products"?')).toBeGreaterThan(productsBefore);
    expect(await calls(replica, 'from\\s+"?customers"?')).toBeGreaterThan(customersBefore);
    expect(await calls(replica, 'from\\s+"?bandwidth_usage"?')).toBeGreaterThan(usageBefore);
    // Every write went to the primary: a standby refuses them, and none failed above.
    const [{ recovering }] = await replica.query<{ recovering: boolean }>('postgres', 'SELECT pg_is_in_recovery() AS recovering');
    expect(recovering).toBe(true);
  });

  it("lets a list lag while the replica's replay is paused; the check and a read by id see the new grant at once", async () => {
    const product = await testApp.http.post('/v1/products').set(bearer(tenant.testKey)).send({ name: 'Lagging', entitlement_type: 'permanent' });
    const productId = product.body.data.id as string;
    await eventually(async () => (await testApp.http.get(`/v1/products?ids=${productId}`).set(bearer(tenant.testKey))).body.data.length === 1, 30_000, 100);

    await replica.query('postgres', 'SELECT pg_wal_replay_pause()');
    await eventually(async () => (await replica.query<{ state: string }>('postgres', 'SELECT pg_get_wal_replay_pause_state() AS state'))[0].state === 'paused', 30_000, 50);
    try {
      const entitlementId = await grant(productId, 'lagging_customer');
      expect(await entitled(productId, 'lagging_customer')).toBe(true);
      expect((await testApp.http.get(`/v1/entitlements/${entitlementId}`).set(bearer(tenant.testKey))).status).toBe(200);
      expect(await listed(productId)).toEqual([]);

      await replica.query('postgres', 'SELECT pg_wal_replay_resume()');
      await eventually(async () => (await listed(productId)).includes(entitlementId), 30_000, 100);
    } finally {
      await replica.query('postgres', 'SELECT pg_wal_replay_resume()');
    }
  });
});
