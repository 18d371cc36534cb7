import { Client } from 'pg';
import { AppProcess } from '../support/app-process';
import { createFileProduct, createMerchant, HttpAnswer, HttpClient, HttpOutcome, isAnswer } from '../support/http-client';
import { TEST_ADMIN_TOKEN } from '../support/test-app';
import { describeNeeding } from '../support/requirements';

/**
 * DESIGN §13, database faults: a burst of writes while the service's connections are killed
 * again and again (pg_terminate_backend) and the database refuses connections for a few seconds.
 * The service runs in a child process on a database this test creates and drops, so the faults
 * touch nothing else. It needs a PostgreSQL server: skipped without TEST_DATABASE_URL locally,
 * required under CI (as webhooks-instances).
 */
const serverUrl = process.env.EH_TEST_SERVER_URL;

const FILE_BYTES = 1000;
/** Longer than anything the service may legitimately take here (acquire 2 s, statements 5 s, queue 10 s). */
const CLIENT_TIMEOUT_MILLISECONDS = 20_000;

type Operation = 'create' | 'usage' | 'download';

interface Attempt {
  operation: Operation;
  entitlementId: string | null;
  outcome: HttpOutcome<{ data?: Record<string, unknown> }>;
}

const delay = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

async function waitFor(deadlineMilliseconds: number, probe: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < deadlineMilliseconds) {
    if (await probe()) return Date.now() - started;
    await delay(200);
  }
  throw new Error(`condition not reached within ${deadlineMilliseconds} ms`);
}

const isSuccess = (outcome: HttpOutcome<unknown>): outcome is HttpAnswer<{ data: Record<string, unknown> }> =>
  isAnswer(outcome) && outcome.status >= 200 && outcome.status < 300;

describeNeeding(['postgresql'], 'database faults: dropped connections and an unreachable database', () => {
  const databaseName = `eh_fault_${process.pid}_${Date.now().toString(36)}`;
  let admin: Client;
  let database: Client | null = null;
  let child: AppProcess | null = null;

  const databaseUrl = () => {
    const url = new URL(serverUrl as string);
    url.pathname = `/${databaseName}`;
    return url.toString();
  };
  /** Ends every session of the test's database but this client's own: the service's pools. */
  const terminateConnections = async () =>
    (
      await admin.query<{ terminated: number }>(
        'SELECT count(pg_terminate_backend(pid))::int AS terminated FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [databaseName],
      )
    ).rows[0].terminated;
  const allowConnections = (allowed: boolean) => admin.query(`ALTER DATABASE "${databaseName}" ALLOW_CONNECTIONS ${allowed}`);

  beforeAll(async () => {
    if (!serverUrl) throw new Error('TEST_DATABASE_URL is required under CI for the database fault test');
    admin = new Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${databaseName}"`);
    child = await AppProcess.start(databaseUrl(), {
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      DATABASE_ACQUIRE_TIMEOUT: '2s',
      DATABASE_STATEMENT_TIMEOUT: '5s',
      LOG_LEVEL: 'warn',
    });
  }, 120_000);

  afterAll(async () => {
    await child?.stop();
    await database?.end().catch(() => undefined);
    if (admin) {
      await allowConnections(true).catch(() => undefined);
      await admin.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
      await admin.end();
    }
  }, 60_000);

  it('never exits, answers 2xx, 503 with Retry-After or 500 and never hangs, resumes by itself, and the database agrees with itself', async () => {
    const service = child as AppProcess;
    const health = new HttpClient(service.baseUrl);
    const merchant = await createMerchant(new HttpClient(service.baseUrl, TEST_ADMIN_TOKEN), 'enterprise', 'Fault merchant');
    const api = new HttpClient(service.baseUrl, merchant.key);
    const { productId, fileId } = await createFileProduct(api, FILE_BYTES);
    const usageProduct = await api.expectData<{ id: string }>(201, 'POST', '/v1/products', {
      name: 'Fault-test usage',
      entitlement_type: 'permanent',
      fulfillment_config: { delivery_method: 'INSTRUCTIONS', access_instructions: 'Enjoy' },
    });
    const grant = (customer: string, product: string) =>
      api.expectData<{ id: string; customer_id: string }>(201, 'POST', '/v1/entitlements', { store_customer_id: customer, product_id: product });
    const downloadEntitlements: Array<{ id: string; customer_id: string }> = [];
    const usageEntitlements: Array<{ id: string; customer_id: string }> = [];
    for (let index = 0; index < 8; index += 1) {
      downloadEntitlements.push(await grant(`fault_downloader_${index}`, productId));
      usageEntitlements.push(await grant(`fault_user_${index}`, usageProduct.id));
    }
    const runMarker = `run_${Date.now().toString(36)}`;

    // The burst: 12 clients, each writing in a loop until told to stop.
    const attempts: Attempt[] = [];
    let stopping = false;
    let sequence = 0;
    const attempt = async (): Promise<void> => {
      const turn = sequence++;
      const operation: Operation = (['create', 'usage', 'download'] as const)[turn % 3];
      let entitlementId: string | null = null;
      let outcome: Attempt['outcome'];
      if (operation === 'create') {
        outcome = await api.request('POST', '/v1/entitlements', {
          body: { store_customer_id: `fault_new_${turn}`, product_id: usageProduct.id, metadata: { fault_run: runMarker } },
          timeoutMilliseconds: CLIENT_TIMEOUT_MILLISECONDS,
        });
      } else if (operation === 'usage') {
        entitlementId = usageEntitlements[turn % usageEntitlements.length].id;
        outcome = await api.request('POST', `/v1/entitlements/${entitlementId}/usage`, { body: { quantity: 1 }, timeoutMilliseconds: CLIENT_TIMEOUT_MILLISECONDS });
      } else {
        const entitlement = downloadEntitlements[turn % downloadEntitlements.length];
        entitlementId = entitlement.id;
        outcome = await api.request('GET', `/v1/files/${fileId}/download?entitlement_id=${entitlement.id}&customer_id=${entitlement.customer_id}`, {
          timeoutMilliseconds: CLIENT_TIMEOUT_MILLISECONDS,
        });
      }
      attempts.push({ operation, entitlementId, outcome });
    };
    const clients = Array.from({ length: 12 }, async () => {
      while (!stopping) await attempt();
    });

    // 1. Connections killed every 200 ms for 6 s while the writes go on.
    let terminated = 0;
    const killingUntil = Date.now() + 6_000;
    while (Date.now() < killingUntil) {
      terminated += await terminateConnections();
      await delay(200);
    }
    expect(terminated).toBeGreaterThan(0);

    // 2. The database refuses every connection for 4 s: readiness turns 503 and stays so.
    await allowConnections(false);
    terminated += await terminateConnections();
    const outageStarted = Date.now();
    await waitFor(10_000, async () => (await health.request('GET', '/health/ready')).status === 503);
    const readinessDuringOutage: Array<number | string> = [];
    while (Date.now() - outageStarted < 4_000) {
      readinessDuringOutage.push((await health.request('GET', '/health/ready', { timeoutMilliseconds: 10_000 })).status);
      await delay(300);
    }
    const attemptsBeforeRecovery = attempts.length;
    await allowConnections(true);

    // 3. It resumes by itself: readiness 200 again, then every kind of write succeeds.
    await waitFor(20_000, async () => (await health.request('GET', '/health/ready')).status === 200);
    await delay(2_000);
    stopping = true;
    await Promise.all(clients);
    const usageEntitlement = usageEntitlements[0];
    const downloadEntitlement = downloadEntitlements[0];
    type Answer = Attempt['outcome'];
    const resumed: Answer[] = [
      await api.request('POST', '/v1/entitlements', { body: { store_customer_id: 'fault_after', product_id: usageProduct.id, metadata: { fault_run: runMarker } } }),
      await api.request('POST', `/v1/entitlements/${usageEntitlement.id}/usage`, { body: { quantity: 1 } }),
      await api.request('GET', `/v1/files/${fileId}/download?entitlement_id=${downloadEntitlement.id}&customer_id=${downloadEntitlement.customer_id}`),
    ];
    expect(resumed.map((outcome) => outcome.status)).toEqual([201, 200, 200]);
    attempts.push(
      { operation: 'create', entitlementId: null, outcome: resumed[0] },
      { operation: 'usage', entitlementId: usageEntitlement.id, outcome: resumed[1] },
      { operation: 'download', entitlementId: downloadEntitlement.id, outcome: resumed[2] },
    );

    // The process never exited, nothing hung, every answer was a success or a retryable failure.
    expect(service.exit).toBeNull();
    expect(readinessDuringOutage.length).toBeGreaterThan(3);
    expect(readinessDuringOutage.every((status) => status === 503)).toBe(true);
    const statuses = attempts.map(({ outcome }) => outcome.status);
    expect(statuses.filter((status) => typeof status !== 'number')).toEqual([]);
    const unexpected = attempts.filter(({ outcome }) => {
      if (!isAnswer(outcome)) return true;
      if (outcome.status >= 200 && outcome.status < 300) return false;
      if (outcome.status === 503) return !(Number(outcome.headers.get('retry-after')) >= 1);
      return outcome.status !== 500;
    });
    expect(unexpected.map(({ operation, outcome }) => ({ operation, status: outcome.status, body: isAnswer(outcome) ? outcome.body : outcome.error }))).toEqual([]);
    const unavailable = attempts.filter(({ outcome }) => outcome.status === 503);
    expect(unavailable.length).toBeGreaterThan(0);
    for (const { outcome } of unavailable) {
      expect(isAnswer(outcome) && outcome.body).toMatchObject({ error: { type: 'api_error', code: 'SERVICE_UNAVAILABLE' } });
    }
    expect(attempts.filter(({ outcome }) => isSuccess(outcome)).length).toBeGreaterThan(30);
    expect(attemptsBeforeRecovery).toBeLessThan(attempts.length);
    process.stderr.write(
      `database-faults: ${attempts.length} writes, ${terminated} connections terminated; answers ${JSON.stringify(
        statuses.reduce<Record<string, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {}),
      )}\n`,
    );

    // Afterwards the database agrees with itself, and holds every success the client saw.
    database = new Client({ connectionString: databaseUrl() });
    await database.connect();
    const db = database;
    const rows = async <Row>(sql: string, parameters: unknown[]): Promise<Row[]> => (await db.query(sql, parameters)).rows as Row[];

    // Downloads: each entitlement's uses = its download rows; the file's count = its rows; bandwidth = their bytes.
    const downloadCounts = await rows<{ id: string; usage_count: number; downloads: number }>(
      'SELECT e.id, e.usage_count, (SELECT count(*) FROM downloads d WHERE d.entitlement_id = e.id)::int AS downloads FROM entitlements e WHERE e.id = ANY($1)',
      [downloadEntitlements.map((entitlement) => entitlement.id)],
    );
    expect(downloadCounts).toHaveLength(downloadEntitlements.length);
    for (const row of downloadCounts) expect(row.usage_count).toBe(row.downloads);
    const [file] = await rows<{ download_count: number; downloads: number }>(
      'SELECT f.download_count, (SELECT count(*) FROM downloads d WHERE d.file_id = f.id)::int AS downloads FROM files f WHERE f.id = $1',
      [fileId],
    );
    expect(file.download_count).toBe(file.downloads);
    const [bandwidth] = await rows<{ metered: string; downloaded: string }>(
      `SELECT (SELECT coalesce(sum(bandwidth_bytes), 0) FROM bandwidth_usage WHERE merchant_id = $1 AND mode = 'test')::text AS metered,
              (SELECT coalesce(sum(bytes), 0) FROM downloads WHERE merchant_id = $1 AND mode = 'test')::text AS downloaded`,
      [merchant.merchantId],
    );
    expect(bandwidth.metered).toBe(bandwidth.downloaded);
    expect(Number(bandwidth.downloaded)).toBe(file.downloads * FILE_BYTES);

    // Each download has exactly one download.completed event, and each event one download.
    const downloadIds = (await rows<{ id: string }>('SELECT id FROM downloads WHERE file_id = $1', [fileId])).map((row) => row.id).sort();
    const downloadEvents = await rows<{ id: string; events: number }>(
      `SELECT data->'object'->>'id' AS id, count(*)::int AS events FROM events WHERE merchant_id = $1 AND type = 'download.completed' GROUP BY 1`,
      [merchant.merchantId],
    );
    expect(downloadEvents.map((row) => row.id).sort()).toEqual(downloadIds);
    expect(downloadEvents.every((row) => row.events === 1)).toBe(true);

    // Usage: each entitlement's usage_count = its entitlement.updated events, one per use (counts 1..n, once each).
    for (const entitlement of usageEntitlements) {
      const [{ usage_count: usageCount }] = await rows<{ usage_count: number }>('SELECT usage_count FROM entitlements WHERE id = $1', [entitlement.id]);
      const eventCounts = (
        await rows<{ usage_count: number }>(
          `SELECT (data->'object'->>'usage_count')::int AS usage_count FROM events WHERE type = 'entitlement.updated' AND data->'object'->>'id' = $1`,
          [entitlement.id],
        )
      )
        .map((row) => row.usage_count)
        .sort((left, right) => left - right);
      expect(eventCounts).toEqual(Array.from({ length: usageCount }, (_unused, index) => index + 1));
      const mine = attempts.filter((item) => item.operation === 'usage' && item.entitlementId === entitlement.id);
      const succeeded = mine.filter(({ outcome }) => isSuccess(outcome));
      // Every use the client saw succeed is there; a failed answer may still have committed (a
      // connection cut after COMMIT), never more than those.
      expect(usageCount).toBeGreaterThanOrEqual(succeeded.length);
      expect(usageCount).toBeLessThanOrEqual(mine.length);
      for (const { outcome } of succeeded) {
        expect(eventCounts).toContain((outcome as HttpAnswer<{ data: { usage_count: number } }>).body.data.usage_count);
      }
    }

    // Creates: each created entitlement has exactly one entitlement.created event; every 201 seen is stored.
    const created = (await rows<{ id: string }>(`SELECT id FROM entitlements WHERE metadata->>'fault_run' = $1`, [runMarker])).map((row) => row.id).sort();
    const createdEvents = await rows<{ id: string; events: number }>(
      `SELECT data->'object'->>'id' AS id, count(*)::int AS events FROM events
        WHERE type = 'entitlement.created' AND data->'object'->'metadata'->>'fault_run' = $1 GROUP BY 1`,
      [runMarker],
    );
    expect(createdEvents.map((row) => row.id).sort()).toEqual(created);
    expect(createdEvents.every((row) => row.events === 1)).toBe(true);
    const createAttempts = attempts.filter((item) => item.operation === 'create');
    const createdSeen = createAttempts.filter(({ outcome }) => isSuccess(outcome)).map(({ outcome }) => (outcome as HttpAnswer<{ data: { id: string } }>).body.data.id);
    expect(created).toEqual(expect.arrayContaining(createdSeen));
    expect(created.length).toBeLessThanOrEqual(createAttempts.length);

    // Downloads the client saw succeed are stored; failed ones may have committed, never more.
    const downloadAttempts = attempts.filter((item) => item.operation === 'download');
    const downloadsSeen = downloadAttempts
      .filter(({ outcome }) => isSuccess(outcome))
      .map(({ outcome }) => (outcome as HttpAnswer<{ data: { download: { id: string } } }>).body.data.download.id);
    expect(downloadIds).toEqual(expect.arrayContaining(downloadsSeen));
    // No download was made while preparing: every row comes from an attempt here.
    expect(downloadIds.length).toBeLessThanOrEqual(downloadAttempts.length);
  }, 240_000);
});
