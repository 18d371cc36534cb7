import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { AppProcess } from '../support/app-process';
import { LocalStorageController } from '../../src/files/storage/local-storage.controller';
import { FileFixtures, putObject, UploadedFile } from '../support/file-fixtures';
import { freePort } from '../support/free-port';
import { SocketOutcome, trickle } from '../support/raw-http';
import { createTestApp, TestApp } from '../support/test-app';

const MEBIBYTE = 1024 * 1024;
const PDF = 'application/pdf';

function head(method: string, path: string, headers: Record<string, string | number>): string {
  return `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;
}

function statusOf(outcome: SocketOutcome): number | null {
  const match = /^HTTP\/1\.1 (\d{3})/.exec(outcome.received);
  return match ? Number(match[1]) : null;
}

/** Starts an in-process app listening on a loopback port. */
async function listening(overrides: Record<string, string> = {}): Promise<{ testApp: TestApp; port: number }> {
  const port = await freePort();
  const testApp = await createTestApp({ PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, ...overrides });
  await testApp.app.listen(port, '127.0.0.1');
  return { testApp, port };
}

describe('slow clients: unauthenticated bodies are never read', () => {
  let server: AppProcess;
  let port: number;

  beforeAll(async () => {
    // A process of its own, so its memory is the server's alone.
    server = await AppProcess.start(process.env.EH_TEST_DATABASE_URL ?? '');
    port = Number(new URL(server.baseUrl).port);
  }, 60_000);
  afterAll(() => server?.stop());

  it('answers 150 sockets trickling 1 MiB bodies without a valid key with 401 and closes them; the server does not grow by the bodies', async () => {
    // Warm up (JIT, the key cache, the first lookups) so the baseline is steady.
    await fetch(`${server.baseUrl}/v1/products`, { headers: { Authorization: `Bearer eh_test_${'A'.repeat(40)}` } });
    const before = server.residentBytes();
    const sockets = Array.from({ length: 150 }, (_unused, index) =>
      trickle({
        port,
        head: head('POST', '/v1/entitlements', {
          'Content-Type': 'application/json',
          'Content-Length': MEBIBYTE,
          // Half send no key, half a wrong one: neither may cost the body.
          ...(index % 2 === 0 ? {} : { Authorization: `Bearer eh_test_${'A'.repeat(40)}` }),
        }),
        chunkBytes: 64 * 1024,
        intervalMilliseconds: 100,
        totalBytes: MEBIBYTE,
        giveUpAfterMilliseconds: 20_000,
      }),
    );
    const outcomes = await Promise.all(sockets.map((socket) => socket.done));
    const after = server.residentBytes();

    const unanswered = outcomes.filter((outcome) => statusOf(outcome) !== 401);
    expect(unanswered.map((outcome) => outcome.received.slice(0, 80))).toEqual([]);
    for (const outcome of outcomes) {
      expect(outcome.received.toLowerCase()).toContain('connection: close');
      expect(outcome.received).toContain('"code":"INVALID_API_KEY"');
      // Closed by the server, long before a trickled megabyte could have arrived (~1.6 s).
      expect(outcome.closedAfterMilliseconds).not.toBeNull();
      expect(outcome.bytesWritten).toBeLessThan(MEBIBYTE);
    }
    // 150 bodies read into memory would be 150 MiB; what the server holds stays far below.
    expect(after - before).toBeLessThan(40 * MEBIBYTE);
  }, 60_000);
});

describe('slow clients: deadlines', () => {
  let testApp: TestApp;
  let port: number;
  let apiKey: string;

  beforeAll(async () => {
    ({ testApp, port } = await listening({ HTTP_HEADERS_TIMEOUT: '1s', HTTP_REQUEST_TIMEOUT: '2s' }));
    apiKey = (await testApp.createTenant()).testKey;
  });
  afterAll(() => testApp?.close());

  it('cuts off a client that trickles its headers (408, closed) after HTTP_HEADERS_TIMEOUT', async () => {
    const slow = trickle({
      port,
      head: 'GET /v1/products HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ',
      chunkBytes: 1,
      intervalMilliseconds: 100,
      totalBytes: 1_000,
      giveUpAfterMilliseconds: 15_000,
    });
    const outcome = await slow.done;
    expect(statusOf(outcome)).toBe(408);
    expect(outcome.closedAfterMilliseconds).not.toBeNull();
    expect(outcome.closedAfterMilliseconds).toBeGreaterThanOrEqual(900);
    expect(outcome.closedAfterMilliseconds).toBeLessThan(5_000);
  });

  it('cuts off an authenticated client that trickles its body (408, closed) after HTTP_REQUEST_TIMEOUT', async () => {
    const slow = trickle({
      port,
      head: head('POST', '/v1/products', { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json', 'Content-Length': 1_000 }),
      chunkBytes: 10,
      intervalMilliseconds: 100,
      totalBytes: 1_000,
      giveUpAfterMilliseconds: 15_000,
    });
    const outcome = await slow.done;
    expect(statusOf(outcome)).toBe(408);
    expect(outcome.closedAfterMilliseconds).not.toBeNull();
    expect(outcome.closedAfterMilliseconds).toBeGreaterThanOrEqual(1_900);
    expect(outcome.closedAfterMilliseconds).toBeLessThan(6_000);
    // The service answers everyone else meanwhile.
    await testApp.http.get('/health/live').expect(200);
  });
});

describe('slow clients: local-storage uploads', () => {
  let testApp: TestApp;
  let port: number;
  let fixtures: FileFixtures;

  beforeAll(async () => {
    // 100 kB/s: a 100,000-byte upload (110,000 accepted) may take 1 s + 1.1 s.
    ({ testApp, port } = await listening({ HTTP_HEADERS_TIMEOUT: '1s', HTTP_REQUEST_TIMEOUT: '1s', LOCAL_UPLOAD_MIN_BYTES_PER_SECOND: '100000' }));
    fixtures = new FileFixtures(testApp);
  });
  afterAll(() => testApp?.close());

  /** `Connection: close`, so the socket ends with the answer rather than after the keep-alive timeout. */
  function uploadHead(uploadUrl: string, length: number): string {
    const url = new URL(uploadUrl);
    return head('PUT', `${url.pathname}${url.search}`, { 'Content-Type': PDF, 'Content-Length': length, Connection: 'close' });
  }

  it('gives an upload a deadline scaled to its size: longer than HTTP_REQUEST_TIMEOUT, yet finite', async () => {
    const tenant = await testApp.createTenant('free');
    const inTime = await fixtures.uploadUrl(tenant.testKey, { file_name: 'in-time.pdf', file_size: 100_000, mime_type: PDF });
    // ~1.5 s for the body: past the 1 s every other body gets, within this upload's ~2.1 s.
    const steady = await trickle({ port, head: uploadHead(inTime.uploadUrl, 100_000), chunkBytes: 10_000, intervalMilliseconds: 150, totalBytes: 100_000, giveUpAfterMilliseconds: 10_000 }).done;
    expect(statusOf(steady)).toBe(200);

    const tooSlow = await fixtures.uploadUrl(tenant.testKey, { file_name: 'too-slow.pdf', file_size: 100_000, mime_type: PDF });
    const stalled = await trickle({ port, head: uploadHead(tooSlow.uploadUrl, 100_000), chunkBytes: 1_000, intervalMilliseconds: 100, totalBytes: 100_000, giveUpAfterMilliseconds: 15_000 }).done;
    expect(statusOf(stalled)).toBe(408);
    expect(stalled.closedAfterMilliseconds).toBeGreaterThanOrEqual(2_000);
    expect(stalled.closedAfterMilliseconds).toBeLessThan(6_000);
  });

});

describe('slow clients: upload slots', () => {
  let testApp: TestApp;
  let port: number;
  let fixtures: FileFixtures;

  beforeAll(async () => {
    // Default deadlines: the stalled uploads must outlive the whole test.
    ({ testApp, port } = await listening());
    fixtures = new FileFixtures(testApp);
  });
  afterAll(() => testApp?.close());

  function uploadHead(uploadUrl: string, length: number): string {
    const url = new URL(uploadUrl);
    return head('PUT', `${url.pathname}${url.search}`, { 'Content-Type': PDF, 'Content-Length': length });
  }

  it("keeps upload slots per merchant: merchant A's 32 trickling uploads don't make merchant B's answer 503", async () => {
    const merchantA = await testApp.createTenant('free');
    const merchantB = await testApp.createTenant('free');
    const uploadsA: UploadedFile[] = [];
    // 32 to trickle, one to probe with, and spares for trickles refused while a probe held a slot.
    for (let index = 0; index < 36; index += 1) {
      uploadsA.push(await fixtures.uploadUrl(merchantA.testKey, { file_name: `a-${index}.pdf`, file_size: 100_000, mime_type: PDF }));
    }
    const [probe, ...trickled] = [uploadsA[32], ...uploadsA.slice(0, 32), ...uploadsA.slice(33)];
    const sockets: Socket[] = [];
    const received: string[] = [];
    const startTrickle = (upload: UploadedFile) => {
      const stalled = trickle({ port, head: uploadHead(upload.uploadUrl, 100_000), chunkBytes: 100, intervalMilliseconds: 200, totalBytes: 100_000, giveUpAfterMilliseconds: 30_000 });
      sockets.push(stalled.socket);
      stalled.socket.on('data', (chunk: Buffer | string) => received.push(String(chunk).slice(0, 120)));
    };
    try {
      let started = 0;
      for (; started < 32; started += 1) startTrickle(trickled[started]);
      // Waits on the server's own count of A's uploads in progress until all 32 trickles hold a
      // slot (a trickle refused meanwhile is replaced), then probes once: A's slots are taken.
      const slots = (testApp.app.get(LocalStorageController) as unknown as { uploadsByMerchant: Map<string, number> }).uploadsByMerchant;
      const waitForFull = async (): Promise<Response> => {
        for (let attempt = 0; attempt < 300; attempt += 1) {
          const refusedTrickles = received.filter((answer) => answer.startsWith('HTTP/1.1 503')).length;
          while (started < 32 + refusedTrickles && started < trickled.length) startTrickle(trickled[started++]);
          if ((slots.get(merchantA.merchantId) ?? 0) >= 32) return putObject(probe.uploadUrl, Buffer.alloc(1, 1), PDF);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        throw new Error(`merchant A's uploads never filled its slots (${slots.get(merchantA.merchantId) ?? 0} held); they were answered: ${JSON.stringify(received)}`);
      };
      const refusedA = await waitForFull();
      expect(refusedA.status).toBe(503);
      expect(refusedA.headers.get('retry-after')).toBe('1');

      const uploadB = await fixtures.uploadUrl(merchantB.testKey, { file_name: 'b.pdf', file_size: 1_000, mime_type: PDF });
      expect((await putObject(uploadB.uploadUrl, Buffer.alloc(1_000, 2), PDF)).status).toBe(200);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
    // A's slots come back once its stalled uploads are gone.
    const freed = await fixtures.uploadUrl(merchantA.testKey, { file_name: 'a-after.pdf', file_size: 1_000, mime_type: PDF });
    let status = 0;
    for (let attempt = 0; attempt < 50 && status !== 200; attempt += 1) {
      status = (await putObject(freed.uploadUrl, Buffer.alloc(1_000, 3), PDF)).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
    // Nothing keeps the server's sockets busy afterwards.
    expect((testApp.app.getHttpServer() as Server).listening).toBe(true);
  }, 60_000);
});
