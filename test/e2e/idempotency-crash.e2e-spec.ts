import { DataSource } from 'typeorm';
import { AppProcess } from '../support/app-process';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';
import { describeNeeding } from '../support/requirements';

/**
 * DESIGN §13, "idempotency survives a crash": the key's record commits in the same transaction as
 * the grant it guards. The service runs as a child process on the run's PostgreSQL database and is
 * SIGKILLed in the middle of a burst of idempotent creates; a new process on the same database then
 * takes a retry of every key. Each key must end with exactly one entitlement, no key may be left
 * half-done, and a retry of an answered key replays the first answer. (Before this design, with
 * the key completed after the commit, one trial left 20 of 160 keys granted twice.)
 * Needs PostgreSQL: the embedded database belongs to one process.
 */
const databaseUrl = process.env.EH_TEST_DATABASE_URL;

const KEYS = 160;
const IN_FLIGHT = 16;
/** Each server is killed once this many creates were answered, with the rest of its burst in flight. */
const KILL_AFTER_ANSWERS = 32;
const CRASHES = 3;

interface Answer {
  status: number;
  text: string;
  replayed: boolean;
}

describeNeeding(['postgresql'], 'idempotency: a crash between the effect and its record (PostgreSQL, SIGKILL)', () => {
  let setupApp: TestApp;
  let tenant: TestTenant;
  let productId: string;
  const run = `crash_${Date.now().toString(36)}`;
  const idempotencyKey = (index: number) => `${run}-key-${index}`;
  const body = (index: number) => JSON.stringify({ store_customer_id: `${run}_customer_${index}`, product_id: productId, metadata: { crash_run: run, key_index: index } });

  async function create(baseUrl: string, index: number): Promise<Answer> {
    // A request cut off by the kill rejects (fetch failed); the caller decides what that means.
    const response = await fetch(`${baseUrl}/v1/entitlements`, {
      method: 'POST',
      headers: { ...bearer(tenant.testKey), 'content-type': 'application/json', 'idempotency-key': idempotencyKey(index) },
      body: body(index),
    });
    return { status: response.status, text: await response.text(), replayed: response.headers.get('idempotent-replayed') === 'true' };
  }

  beforeAll(async () => {
    if (!databaseUrl) throw new Error('TEST_DATABASE_URL is required under CI for the crash test');
    setupApp = await createTestApp();
    tenant = await setupApp.createTenant('pro');
    productId = (
      await setupApp.http
        .post('/v1/products')
        .set(bearer(tenant.testKey))
        .send({ name: 'Crash-tested grant', entitlement_type: 'permanent', fulfillment_config: { delivery_method: 'INSTRUCTIONS', access_instructions: 'Enjoy' } })
        .expect(201)
    ).body.data.id;
  });
  afterAll(() => setupApp?.close());

  /**
   * Fires `keys` at the server, IN_FLIGHT at a time, and SIGKILLs it once `killAfter` were
   * answered; returns the answers it got. Requests the kill cut off have none.
   */
  async function burstAndKill(server: AppProcess, keys: number[], killAfter: number): Promise<{ answers: Map<number, Answer>; inFlightAtKill: number }> {
    const answers = new Map<number, Answer>();
    const queue = [...keys];
    let killed: Promise<void> | null = null;
    let inFlight = 0;
    let inFlightAtKill = 0;
    const worker = async () => {
      while (queue.length > 0 && !killed) {
        const index = queue.shift() as number;
        inFlight += 1;
        try {
          const answer = await create(server.baseUrl, index);
          if (answer.status < 200 || answer.status >= 300) throw new Error(`key ${index}: unexpected ${answer.status} before the crash: ${answer.text}`);
          answers.set(index, answer);
        } catch (error) {
          if (!killed) throw error;
        } finally {
          inFlight -= 1;
        }
        if (answers.size >= killAfter && !killed) {
          inFlightAtKill = inFlight;
          killed = server.kill();
        }
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    await (killed ?? server.kill());
    return { answers, inFlightAtKill };
  }

  it('grants exactly once per key when the server is SIGKILLed mid-burst (three times) and every key is retried after a restart', async () => {
    const first = new Map<number, Answer>();
    let server: AppProcess | null = null;
    try {
      // Three crashes: each server takes the keys still unanswered and is killed mid-burst.
      for (let crash = 0; crash < CRASHES; crash += 1) {
        server = await AppProcess.start(databaseUrl as string);
        const unanswered = Array.from({ length: KEYS }, (_, index) => index).filter((index) => !first.has(index));
        const { answers, inFlightAtKill } = await burstAndKill(server, unanswered, KILL_AFTER_ANSWERS);
        server = null;
        expect(answers.size).toBeGreaterThanOrEqual(KILL_AFTER_ANSWERS);
        expect(inFlightAtKill).toBeGreaterThan(0);
        for (const [index, answer] of answers) first.set(index, answer);
      }
      expect(first.size).toBeLessThan(KEYS);

      // A new process on the same database takes one retry of every key. Nothing is stuck, so each
      // is answered at once: replayed if it committed before a crash, run (once) if it did not.
      server = await AppProcess.start(databaseUrl as string);
      const restarted = server;
      const final = new Map<number, Answer>();
      const queue = Array.from({ length: KEYS }, (_, index) => index);
      await Promise.all(
        Array.from({ length: IN_FLIGHT }, async () => {
          while (queue.length > 0) {
            const index = queue.shift() as number;
            final.set(index, await create(restarted.baseUrl, index));
          }
        }),
      );
      const refused = [...final].filter(([, answer]) => answer.status < 200 || answer.status >= 300).map(([index, answer]) => `${index}: ${answer.status} ${answer.text}`);
      expect(refused).toEqual([]);

      // Exactly one entitlement per key, and it is the one every answer names.
      const dataSource = setupApp.app.get(DataSource);
      const rows = (await dataSource.query(
        `SELECT (metadata->>'key_index')::int AS key_index, id FROM entitlements WHERE merchant_id = $1 AND metadata->>'crash_run' = $2`,
        [tenant.merchantId, run],
      )) as Array<{ key_index: number; id: string }>;
      const perKey = new Map<number, string[]>();
      for (const row of rows) perKey.set(row.key_index, [...(perKey.get(row.key_index) ?? []), row.id]);
      const duplicated = [...perKey].filter(([, ids]) => ids.length !== 1).map(([index]) => index);
      expect(duplicated).toEqual([]);
      expect(perKey.size).toBe(KEYS);
      for (let index = 0; index < KEYS; index += 1) {
        const answer = final.get(index) as Answer;
        expect({ index, id: JSON.parse(answer.text).data.id }).toEqual({ index, id: (perKey.get(index) as string[])[0] });
      }

      // Nothing half-done: every key of the run is stored with its complete response.
      const [{ keys, incomplete }] = (await dataSource.query(
        `SELECT count(*)::int AS keys, count(*) FILTER (WHERE response_body IS NULL)::int AS incomplete
         FROM idempotency_keys WHERE merchant_id = $1 AND key LIKE $2`,
        [tenant.merchantId, `${run}-key-%`],
      )) as Array<{ keys: number; incomplete: number }>;
      expect({ keys, incomplete }).toEqual({ keys: KEYS, incomplete: 0 });

      // A retry of a key answered before a crash replays that answer, byte for byte.
      for (const [index, answer] of first) {
        const retried = final.get(index) as Answer;
        expect({ index, status: retried.status, replayed: retried.replayed, same: retried.text === answer.text }).toEqual({
          index,
          status: answer.status,
          replayed: true,
          same: true,
        });
      }
    } finally {
      await server?.stop();
    }
    // Four processes start (ts-node) one after the other: more than jest's default minute on a busy machine.
  }, 240_000);
});
