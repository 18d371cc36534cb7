import { connect, Socket } from 'node:net';
import { MerchantAdmission } from '../../src/rate-limiting/merchant-admission';
import { eventually } from '../support/eventually';
import { freePort } from '../support/free-port';
import { createTestApp, TestApp, TestTenant } from '../support/test-app';

/**
 * Fair share (DESIGN §15): while another merchant is present, a merchant has
 * MERCHANT_REQUESTS_IN_FLIGHT requests handled at once and MERCHANT_REQUEST_QUEUE waiting; one
 * more is 429 RATE_LIMITED with Retry-After, while the other merchant is served. Alone, it is not
 * limited. Requests are held in flight without timing: a POST whose body never comes has passed
 * authentication (and taken its slot) and waits for its body. Outcomes are counted, never timed;
 * the admission's own counters say when a request has reached it.
 */
const IN_FLIGHT = 2;
const QUEUE = 1;

interface HeldRequest {
  socket: Socket;
  /** Everything the server sent on the socket, once it is closed. */
  received: Promise<string>;
}

/** A POST /v1/products with `key` whose announced body is not sent (until the test sends it). */
function holdRequest(port: number, key: string): HeldRequest {
  const socket = connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  socket.write(
    `POST /v1/products HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 40\r\nConnection: close\r\n\r\n{`,
  );
  const received = new Promise<string>((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('close', () => resolve(text));
    socket.on('error', () => undefined);
  });
  return { socket, received };
}

function statusOf(received: string): number | null {
  const match = /^HTTP\/1\.1 (\d{3})/.exec(received);
  return match ? Number(match[1]) : null;
}

describe('merchant admission: one merchant over its share is refused, others are served', () => {
  let testApp: TestApp;
  let admission: MerchantAdmission;
  let baseUrl: string;
  let port: number;
  let merchantA: TestTenant;
  let merchantB: TestTenant;
  const open: Socket[] = [];

  const get = (key: string, path = '/v1/products') => fetch(`${baseUrl}${path}`, { headers: { Authorization: `Bearer ${key}` } });
  const loadOf = (tenant: TestTenant) => admission.load(tenant.merchantId);
  const until = (condition: () => boolean) => eventually(() => Promise.resolve(condition()), 30_000, 20);
  const hold = (tenant: TestTenant = merchantA) => {
    const held = holdRequest(port, tenant.testKey);
    open.push(held.socket);
    return held;
  };
  /** B holds a request in flight, so A is not alone and is held to its share. */
  const bPresent = async () => {
    hold(merchantB);
    await until(() => loadOf(merchantB).running === 1);
  };

  beforeAll(async () => {
    port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    testApp = await createTestApp({
      PUBLIC_BASE_URL: baseUrl,
      MERCHANT_REQUESTS_IN_FLIGHT: String(IN_FLIGHT),
      MERCHANT_REQUEST_QUEUE: String(QUEUE),
    });
    await testApp.app.listen(port, '127.0.0.1');
    admission = testApp.app.get(MerchantAdmission);
    merchantA = await testApp.createTenant('enterprise');
    merchantB = await testApp.createTenant('enterprise');
  }, 60_000);

  afterEach(async () => {
    for (const socket of open.splice(0)) socket.destroy();
    // Every slot back, and both merchants forgotten once idle: the next test starts with nobody present.
    await until(() => admission.present() === 0);
  });

  afterAll(() => testApp?.close());

  it("refuses A's request over its in-flight limit and its queue with 429 RATE_LIMITED and Retry-After, while B is served", async () => {
    await bPresent();
    const held = [hold(), hold()];
    await until(() => loadOf(merchantA).running === IN_FLIGHT);
    // The queue's one place: this request waits for a turn.
    const queued = get(merchantA.testKey);
    await until(() => loadOf(merchantA).waiting === QUEUE);

    const refused = await get(merchantA.testKey);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    const body = (await refused.json()) as { error: { type: string; code: string; message: string } };
    expect(body.error.type).toBe('rate_limit_error');
    expect(body.error.code).toBe('RATE_LIMITED');
    expect(body.error.message).toContain('in progress');
    // The direct route (the check) is admitted the same way.
    expect((await get(merchantA.testKey, '/v1/entitlements/check?customer_id=cus_none&product_id=prod_none')).status).toBe(429);

    // B is not A: its list, its check and its write are served while A is full.
    expect((await get(merchantB.testKey)).status).toBe(200);
    expect((await get(merchantB.testKey, '/v1/entitlements/check?customer_id=cus_none&product_id=prod_none')).status).toBe(200);
    const write = await fetch(`${baseUrl}/v1/products`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${merchantB.testKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'B product', entitlement_type: 'permanent' }),
    });
    expect(write.status).toBe(201);
    // B's held request is all B has in flight: its served requests gave their slots back.
    expect(loadOf(merchantB)).toEqual({ running: 1, waiting: 0 });

    // A held request ending in an error (400: its body is not JSON) hands its slot to the queued one.
    held[0].socket.end('x'.repeat(39));
    expect(statusOf(await held[0].received)).toBe(400);
    expect((await queued).status).toBe(200);
    // An aborted client gives its slot back too.
    held[1].socket.destroy();
    await until(() => loadOf(merchantA).running === 0);
    const later = await Promise.all([get(merchantA.testKey), get(merchantA.testKey)]);
    expect(later.map((response) => response.status)).toEqual([200, 200]);
  }, 60_000);

  it('lets a client that goes away while queued leave the queue, so the place is free again', async () => {
    await bPresent();
    hold();
    hold();
    await until(() => loadOf(merchantA).running === IN_FLIGHT);
    const queuedAndGone = hold();
    await until(() => loadOf(merchantA).waiting === 1);
    queuedAndGone.socket.destroy();
    await until(() => loadOf(merchantA).waiting === 0);
    // The place is free: this request waits there instead of being refused.
    const queued = get(merchantA.testKey);
    await until(() => loadOf(merchantA).waiting === 1);
    expect(loadOf(merchantA).running).toBe(IN_FLIGHT);
    for (const socket of open.splice(0)) socket.destroy();
    expect((await queued).status).toBe(200);
  }, 60_000);

  it('does not limit a merchant alone; once another merchant is present, its next request waits, and runs when the other is gone', async () => {
    const held = [hold(), hold(), hold()];
    // Nobody else present: all three are in flight, over the share of 2.
    await until(() => loadOf(merchantA).running === 3);
    expect(loadOf(merchantA).waiting).toBe(0);
    await bPresent();
    const waiting = get(merchantA.testKey);
    await until(() => loadOf(merchantA).waiting === 1);
    // A finished request does not pass its slot on while A is over its share: A shrinks to it.
    held[0].socket.destroy();
    await until(() => loadOf(merchantA).running === 2);
    expect(loadOf(merchantA).waiting).toBe(1);
    // B gone (and forgotten once idle): A is alone again and its waiting request runs.
    open.find((socket) => socket !== held[0].socket && socket !== held[1].socket && socket !== held[2].socket)?.destroy();
    expect((await waiting).status).toBe(200);
  }, 60_000);

  it('gives every slot back after many requests ending in errors and successes', async () => {
    await bPresent();
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_unused, index) => get(merchantA.testKey, index % 2 === 0 ? '/v1/products' : '/v1/products/prod_missing')),
    );
    const statuses = outcomes.map((response) => response.status);
    // Within the limit, the queue or refused: never anything else; the 404s are errors that still release.
    expect(statuses.every((status) => status === 200 || status === 404 || status === 429)).toBe(true);
    expect(statuses.filter((status) => status === 404).length + statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(IN_FLIGHT);
    await until(() => loadOf(merchantA).running === 0 && loadOf(merchantA).waiting === 0);
    expect((await Promise.all([get(merchantA.testKey), get(merchantA.testKey)])).map((response) => response.status)).toEqual([200, 200]);
  }, 60_000);
});
