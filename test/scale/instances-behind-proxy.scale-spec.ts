import { randomInt } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { Client } from 'pg';
import { ENTITIES } from '../../src/app-entities';
import { MIGRATIONS } from '../../src/database/migrations';
import { runMigrationsAt } from '../../src/database/run-migrations';
import { AppProcess } from '../support/app-process';
import { guessApiKey } from '../support/credential-guesses';
import { eventually } from '../support/eventually';
import { NginxProxy } from '../support/nginx-proxy';
import { PgBouncer } from '../support/pgbouncer';
import { describeNeeding, testRedisUrl } from '../support/requirements';
import { testHttpAdapter } from '../support/test-adapter';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * Several instances, proved (DESIGN §15, issues 22 and 36): three instances on one PostgreSQL and
 * Redis behind a real nginx (Debian's package; .ci/run installs it), reaching PostgreSQL through
 * PgBouncer in transaction mode (Debian's too), so nothing they do may rely on session state: the
 * migrations' lock, the dispatcher's claim and the check run with DATABASE_PREPARED_STATEMENTS=false
 * over a few server connections all clients share. One instance migrates through its direct
 * DATABASE_MIGRATION_URL; the first migrates through the pooler, racing a second migrator.
 * nginx connects to the instances from 127.0.0.1, which is all TRUST_PROXY trusts; the test's
 * clients connect to nginx from other loopback addresses (127.x.y.z), so each is a client of its
 * own, as on the internet. The three run both HTTP adapters. Needs PostgreSQL, Redis, nginx and
 * pgbouncer (skipped locally without them, failing under CI).
 */
const ADMIN_TOKEN = `scale-admin-token-${randomInt(1e9)}`;
const READ_LIMIT = 120;
const FAILURE_LIMIT = 30;
/** DESIGN §3: a revoked key gets 401 on the next request to any instance within 5 s. */
const REVOCATION_BOUND_MILLISECONDS = 5_000;
/** PgBouncer's server connections to the database: far fewer than the instances' 3 × 14 client connections. */
const SERVER_CONNECTIONS = 6;

interface Answer {
  status: number;
  body: { data?: Record<string, unknown> & { id?: string }; error?: { code: string } } & Record<string, unknown>;
  headers: Headers;
}

/** A client on its own loopback address (so nginx, and through it the instances, see it as itself). */
class Client127 {
  private readonly agent = new Agent({ keepAlive: true });

  constructor(readonly address: string) {}

  request(baseUrl: string, method: string, path: string, options: { headers?: Record<string, string>; body?: unknown } = {}): Promise<Answer> {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    return new Promise((resolve, reject) => {
      const outgoing = httpRequest(
        `${baseUrl}${path}`,
        {
          method,
          agent: this.agent,
          localAddress: this.address,
          headers: { ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }), ...options.headers },
          timeout: 30_000,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const headers = new Headers();
            for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) headers.set(name, [value].flat().join(', '));
            resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : {}, headers });
          });
        },
      );
      outgoing.on('timeout', () => outgoing.destroy(new Error(`${method} ${path}: no answer within 30 s`)));
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  close(): Promise<void> {
    this.agent.destroy();
    return Promise.resolve();
  }
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describeNeeding(['postgresql', 'redis', 'nginx', 'pgbouncer'], 'several instances behind a real reverse proxy, through PgBouncer in transaction mode', () => {
  const instances: AppProcess[] = [];
  let proxy: NginxProxy;
  let bouncer: PgBouncer;
  let migrationRace: PromiseSettledResult<void>[];
  let receiver: WebhookReceiver;
  let database: Client;
  /** Clients on addresses of their own in 127.0.0.0/8, different for every run (the Redis counters are shared). */
  const subnet = `127.${randomInt(16, 250)}.${randomInt(1, 250)}`;
  const alice = new Client127(`${subnet}.2`);
  const bob = new Client127(`${subnet}.3`);
  const operator = new Client127(`${subnet}.4`);

  const viaProxy = (client: Client127, method: string, path: string, options?: { headers?: Record<string, string>; body?: unknown }) => client.request(proxy.baseUrl, method, path, options);
  const admin = (method: string, path: string, body?: unknown) => viaProxy(operator, method, path, { headers: bearer(ADMIN_TOKEN), body });

  async function newMerchant(): Promise<{ merchantId: string; key: string; keyId: string }> {
    const merchant = await admin('POST', '/admin/v1/merchants', { name: 'Scale test merchant', plan: 'pro' });
    expect(merchant.status).toBe(201);
    const key = await admin('POST', `/admin/v1/merchants/${merchant.body.data?.id}/api-keys`, { mode: 'test', scopes: ['*'] });
    expect(key.status).toBe(201);
    return { merchantId: merchant.body.data?.id as string, key: key.body.data?.key as string, keyId: key.body.data?.id as string };
  }

  beforeAll(async () => {
    const databaseUrl = process.env.EH_TEST_DATABASE_URL as string;
    bouncer = await PgBouncer.start(databaseUrl, { serverConnections: SERVER_CONNECTIONS });
    const pooledUrl = bouncer.urlOf(databaseUrl);
    // Two migrators at once through the pooler, on the worker's fresh database: the transaction-level lock lets one run them.
    migrationRace = await Promise.allSettled([runMigrationsAt(pooledUrl, ENTITIES), runMigrationsAt(pooledUrl, ENTITIES)]);
    receiver = await WebhookReceiver.start();
    database = new Client({ connectionString: databaseUrl });
    await database.connect();
    const environment = {
      DATABASE_PREPARED_STATEMENTS: 'false',
      REDIS_URL: testRedisUrl(),
      TRUST_PROXY: '127.0.0.1',
      ADMIN_TOKEN,
      RATE_LIMIT_READ_PER_MINUTE: String(READ_LIMIT),
      AUTH_FAILURE_LIMIT_PER_MINUTE: String(FAILURE_LIMIT),
      CURSOR_SECRET: `scale-cursor-secret-${randomInt(1e9)}`,
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '200ms,400ms,800ms',
      EXPIRY_SWEEP_INTERVAL: '1s',
    };
    // One after another: three ts-node start-ups at once would only be slower on a small machine.
    // The middle one runs the other HTTP adapter: a fleet may mix them, and both meet nginx here.
    const adapters = testHttpAdapter() === 'express' ? ['express', 'fastify', 'express'] : ['fastify', 'express', 'fastify'];
    // The middle one migrates through a direct connection, as a deployment behind a pooler may.
    for (const [index, adapter] of adapters.entries()) {
      const migration: Record<string, string> = index === 1 ? { DATABASE_MIGRATION_URL: databaseUrl } : {};
      instances.push(await AppProcess.start(pooledUrl, { ...environment, ...migration, HTTP_ADAPTER: adapter }));
    }
    proxy = await NginxProxy.start(instances.map((instance) => new URL(instance.baseUrl).host));
  }, 300_000);

  afterAll(async () => {
    await proxy?.stop();
    await Promise.all(instances.map((instance) => instance.stop()));
    await bouncer?.stop();
    await Promise.all([alice, bob, operator].map((client) => client.close()));
    await receiver?.close();
    await database?.end();
  });

  it('migrates once through the pooler with two migrators racing, and the instances reach PostgreSQL only through PgBouncer in transaction mode', async () => {
    expect(migrationRace.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled']);
    const { rows } = await database.query<{ name: string; count: number }>('SELECT name, count(*)::int AS count FROM migrations GROUP BY name');
    expect(rows).toHaveLength(MIGRATIONS.length);
    expect(rows.every((row) => row.count === 1)).toBe(true);
    const name = process.env.EH_TEST_DATABASE_NAME as string;
    const pools = await bouncer.admin<{ database: string; pool_mode: string }>('SHOW POOLS');
    expect(pools.find((pool) => pool.database === name)?.pool_mode).toBe('transaction');
    // Every instance's pools are PgBouncer's clients, many more than its server connections.
    const clients = (await bouncer.admin<{ database: string }>('SHOW CLIENTS')).filter((client) => client.database === name);
    const servers = (await bouncer.admin<{ database: string }>('SHOW SERVERS')).filter((server) => server.database === name);
    expect(clients.length).toBeGreaterThanOrEqual(instances.length);
    expect(servers.length).toBeLessThanOrEqual(SERVER_CONNECTIONS);
    const direct = await database.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM pg_stat_activity WHERE datname = $1 AND application_name = 'entitlement-api' AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
      [name],
    );
    expect(direct.rows[0].count).toBeLessThanOrEqual(SERVER_CONNECTIONS);
  });

  it("spreads requests over the three instances and shares a key's 120 reads a minute exactly", async () => {
    const { key } = await newMerchant();
    const answers: Answer[] = [];
    for (let batch = 0; batch < 13; batch += 1) {
      answers.push(...(await Promise.all(Array.from({ length: 10 }, () => viaProxy(alice, 'GET', '/v1/products', { headers: bearer(key) })))));
    }
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(READ_LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(130 - READ_LIMIT);
    expect(new Set(answers.map((answer) => answer.headers.get('x-upstream'))).size).toBe(3);
  });

  it('TRUST_PROXY lets the failure limiter see the real clients: one guessing client is blocked, the next client is not, valid keys work', async () => {
    const { key } = await newMerchant();
    const guesses: number[] = [];
    for (let index = 0; index <= FAILURE_LIMIT; index += 1) guesses.push((await viaProxy(alice, 'GET', '/v1/products', { headers: bearer(guessApiKey('test')) })).status);
    expect(guesses).toEqual([...Array<number>(FAILURE_LIMIT).fill(401), 429]);
    // Every instance knows (the counter is in Redis): alice's guesses are 429 wherever they land.
    const more = await Promise.all(Array.from({ length: 9 }, () => viaProxy(alice, 'GET', '/v1/products', { headers: bearer(guessApiKey('live')) })));
    expect(more.map((answer) => answer.status)).toEqual(Array<number>(9).fill(429));
    expect(new Set(more.map((answer) => answer.headers.get('x-upstream'))).size).toBeGreaterThan(1);
    // Claiming another address changes nothing: nginx appends the one it saw.
    const spoofed = await viaProxy(alice, 'GET', '/v1/products', { headers: { ...bearer(guessApiKey('test')), 'x-forwarded-for': '198.51.100.77' } });
    expect(spoofed.status).toBe(429);
    // Another client behind the same proxy is not blocked; valid keys work for both.
    expect((await viaProxy(bob, 'GET', '/v1/products', { headers: bearer(guessApiKey('test')) })).status).toBe(401);
    expect((await viaProxy(bob, 'GET', '/v1/products', { headers: bearer(key) })).status).toBe(200);
    expect((await viaProxy(alice, 'GET', '/v1/products', { headers: bearer(key) })).status).toBe(200);
  });

  it('refuses a revoked key on every instance within 5 s, and a revoked entitlement on the very next check', async () => {
    const { key, keyId } = await newMerchant();
    const product = await viaProxy(bob, 'POST', '/v1/products', { headers: bearer(key), body: { name: 'Revocation', entitlement_type: 'permanent' } });
    const granted = await viaProxy(bob, 'POST', '/v1/entitlements', { headers: bearer(key), body: { product_id: product.body.data?.id, store_customer_id: 'revoked_customer' } });
    expect(granted.status).toBe(201);
    const check = (instance: AppProcess) => bob.request(instance.baseUrl, 'GET', `/v1/entitlements/check?store_customer_id=revoked_customer&product_id=${product.body.data?.id}`, { headers: bearer(key) });
    for (const instance of instances) expect((await check(instance)).body.data?.entitled).toBe(true);

    expect((await viaProxy(bob, 'POST', `/v1/entitlements/${granted.body.data?.id}/revoke`, { headers: bearer(key), body: {} })).status).toBe(200);
    for (const instance of instances) expect((await check(instance)).body.data?.entitled).toBe(false);

    expect((await admin('DELETE', `/admin/v1/api-keys/${keyId}`)).status).toBe(200);
    const delays = await Promise.all(
      instances.map((instance) => eventually(async () => (await bob.request(instance.baseUrl, 'GET', '/v1/products', { headers: bearer(key) })).status === 401, REVOCATION_BOUND_MILLISECONDS, 100)),
    );
    expect(delays.every((delay) => delay <= REVOCATION_BOUND_MILLISECONDS)).toBe(true);
  });

  it('delivers each webhook event once, with three dispatchers', async () => {
    const { merchantId, key } = await newMerchant();
    const endpoint = await viaProxy(bob, 'POST', '/v1/webhook-endpoints', { headers: bearer(key), body: { url: receiver.url('/instances'), enabled_events: ['entitlement.created'] } });
    expect(endpoint.status).toBe(201);
    const product = await viaProxy(bob, 'POST', '/v1/products', { headers: bearer(key), body: { name: 'Webhooks', entitlement_type: 'permanent' } });
    const grants = await Promise.all(
      Array.from({ length: 30 }, (_, index) => viaProxy(bob, 'POST', '/v1/entitlements', { headers: bearer(key), body: { product_id: product.body.data?.id, store_customer_id: `hook_${index}` } })),
    );
    expect(grants.map((grant) => grant.status)).toEqual(Array<number>(30).fill(201));
    const { rows } = await database.query<{ id: string }>(`SELECT id FROM events WHERE merchant_id = $1 AND type = 'entitlement.created'`, [merchantId]);
    expect(rows).toHaveLength(30);
    await receiver.until(() => rows.every((row) => receiver.at('/instances').some((entry) => entry.headers['webhook-id'] === row.id)));
    // Every delivery row settled: nothing is left that could still be sent.
    await eventually(async () => Number((await database.query(`SELECT count(*) FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'pending'`, [endpoint.body.data?.id])).rows[0].count) === 0, 30_000);
    const perEvent = new Map<string, number>();
    for (const entry of receiver.at('/instances')) perEvent.set(entry.headers['webhook-id'], (perEvent.get(entry.headers['webhook-id']) ?? 0) + 1);
    expect([...perEvent.values()]).toEqual(Array<number>(30).fill(1));
  });

  it('runs each expiry once and each import batch once', async () => {
    const { merchantId, key } = await newMerchant();
    const product = await viaProxy(bob, 'POST', '/v1/products', { headers: bearer(key), body: { name: 'Expiring', entitlement_type: 'permanent' } });
    const expiresAt = new Date(Date.now() + 3_000).toISOString();
    const expiring = await Promise.all(
      Array.from({ length: 10 }, (_, index) => viaProxy(bob, 'POST', '/v1/entitlements', { headers: bearer(key), body: { product_id: product.body.data?.id, store_customer_id: `expiring_${index}`, expires_at: expiresAt } })),
    );
    const ids = expiring.map((answer) => answer.body.data?.id as string);
    // Three sweepers, each every second: each expiry is persisted and published once.
    await eventually(async () => Number((await database.query(`SELECT count(*) FROM entitlements WHERE id = ANY($1) AND status = 'expired'`, [ids])).rows[0].count) === 10, 30_000);
    const expired = await database.query<{ object_id: string; count: string }>(
      `SELECT data->'object'->>'id' AS object_id, count(*) FROM events WHERE merchant_id = $1 AND type = 'entitlement.expired' GROUP BY 1`,
      [merchantId],
    );
    expect(expired.rows.map((row) => row.object_id).sort()).toEqual([...ids].sort());
    expect(expired.rows.every((row) => Number(row.count) === 1)).toBe(true);

    const rows = Array.from({ length: 300 }, (_, index) => ({ store_customer_id: `imported_${index}`, product_id: product.body.data?.id }));
    const started = await viaProxy(bob, 'POST', '/v1/entitlement-imports', { headers: bearer(key), body: { rows } });
    expect(started.status).toBe(202);
    let report: Answer | null = null;
    await eventually(async () => {
      report = await viaProxy(bob, 'GET', `/v1/entitlement-imports/${started.body.data?.id}`, { headers: bearer(key) });
      return report.body.data?.status === 'completed';
    }, 60_000, 250);
    expect((report as Answer | null)?.body.data).toMatchObject({ total_rows: 300, processed_rows: 300, granted: 300, failed: 0 });
    const counted = await database.query(
      `SELECT (SELECT count(*) FROM entitlements WHERE merchant_id = $1 AND source = 'import')::int AS entitlements,
              (SELECT count(*) FROM events WHERE merchant_id = $1 AND type = 'entitlement.created' AND data->'object'->>'source' = 'import')::int AS events,
              (SELECT count(*) FROM events WHERE merchant_id = $1 AND type = 'import.completed')::int AS completions`,
      [merchantId],
    );
    expect(counted.rows[0]).toEqual({ entitlements: 300, events: 300, completions: 1 });
  });

  it('keeps a dashboard session on every instance, and ends it on every instance', async () => {
    const { merchantId } = await newMerchant();
    const email = `scale-${randomInt(1e9)}@example.com`;
    const user = await admin('POST', `/admin/v1/merchants/${merchantId}/users`, { email });
    const token = new URL(user.body.data?.setup_url as string).hash.replace('#token=', '');
    expect((await viaProxy(bob, 'POST', '/dashboard/api/setup', { body: { token, password: 'correct horse battery' } })).status).toBe(200);
    const signedIn = await viaProxy(bob, 'POST', '/dashboard/api/sign-in', { body: { email, password: 'correct horse battery' } });
    expect(signedIn.status).toBe(200);
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0];
    const csrf = signedIn.body.data?.csrf_token as string;
    for (const instance of instances) {
      expect((await bob.request(instance.baseUrl, 'GET', '/dashboard/api/session', { headers: { cookie } })).status).toBe(200);
      expect((await bob.request(instance.baseUrl, 'GET', '/v1/products', { headers: { cookie, 'eh-mode': 'test' } })).status).toBe(200);
    }
    expect((await viaProxy(bob, 'POST', '/dashboard/api/sign-out', { headers: { cookie, 'x-csrf-token': csrf }, body: {} })).status).toBe(200);
    for (const instance of instances) expect((await bob.request(instance.baseUrl, 'GET', '/dashboard/api/session', { headers: { cookie } })).status).toBe(401);
  });
});
