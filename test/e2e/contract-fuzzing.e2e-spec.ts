import fc from 'fast-check';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { describeResponse, errorEnvelopeProblem, truncate } from '../support/error-envelope';
import { FuzzRequest, hostileRequests, percentEncode } from '../support/hostile-inputs';
import { ApiOperation, documentOperations, fillPath } from '../support/openapi-operations';
import { changedTables, StoredDataDigest } from '../support/stored-data-digest';
import { bearer, createTestApp, TEST_ADMIN_TOKEN, TestApp, TestTenant } from '../support/test-app';
import { createRealResources, LOOPBACK_WEBHOOK_URL, validBodies, validQueries } from '../support/valid-requests';

/**
 * Contract fuzzing (issue 6 item 3): every operation of the OpenAPI document the app serves gets
 * generated hostile input with a key that has every scope (admin routes with the admin token).
 * For every response: never a 5xx; a catalogue error in the error envelope for every 4xx; a 2xx
 * only for reads whose input happens to be valid; and the merchant's stored rows never change,
 * because every request to a state-changing operation carries something the API must refuse.
 *
 * Reproduce a failure with the seed it prints: FUZZ_SEED=<seed> (and FUZZ_RUNS=<n> for more runs).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
/** Health probes and the JWKS answer without auth or input, outside the envelope; nothing to fuzz there. */
const SKIPPED_PREFIXES = ['/health/', '/.well-known/'];

/**
 * Webhook URLs that a request might really register are pointed at loopback: the dispatcher
 * delivers to registered URLs, and tests never send traffic off the machine.
 */
function keepWebhooksOnLoopback(request: FuzzRequest): FuzzRequest {
  if (request.body.kind !== 'json' || typeof request.body.value !== 'object' || request.body.value === null || Array.isArray(request.body.value)) return request;
  const value = request.body.value as Record<string, unknown>;
  if (typeof value.url !== 'string') return request;
  return { ...request, body: { kind: 'json', value: { ...value, url: LOOPBACK_WEBHOOK_URL } } };
}

function seedFor(operation: ApiOperation): number {
  let hash = SEED;
  for (const character of operation.key) hash = (Math.imul(hash, 31) + character.charCodeAt(0)) | 0;
  return hash;
}

function urlOf(operation: ApiOperation, request: FuzzRequest): string {
  const path = fillPath(operation.template, request.path, true);
  if (request.query.length === 0) return path;
  return `${path}?${request.query.map(([name, value]) => `${name}=${value}`).join('&')}`;
}

function describeRequest(operation: ApiOperation, request: FuzzRequest): string {
  const body =
    request.body.kind === 'none'
      ? 'no body'
      : request.body.kind === 'json'
        ? `JSON ${truncate(JSON.stringify(request.body.value), 400)}`
        : `${request.body.contentType} ${truncate(JSON.stringify(request.body.text), 400)}`;
  const headers = Object.entries(request.headers).map(([name, value]) => `${name}: ${truncate(value, 60)}`);
  return `${operation.method.toUpperCase()} ${truncate(urlOf(operation, request), 400)} ${headers.join(' ')} | ${body} | refused because: ${request.refusedBecause ?? '(may be valid)'}`;
}

/** Keeps fast-check's counterexample printout readable when it holds 100 KB strings. */
function shortenReport(message: string): string {
  return message.replace(/"(?:[^"\\]|\\.){300,}?"/g, (literal) => `${literal.slice(0, 120)}…" (${literal.length} chars)`).slice(0, 6000);
}

describe('contract fuzzing (every operation of the OpenAPI document)', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let digest: StoredDataDigest;
  let operations: ApiOperation[];
  let realIds: Record<string, string> = {};

  function authFor(operation: ApiOperation, owner: TestTenant = tenant): Record<string, string> {
    if (operation.isAdmin) return bearer(TEST_ADMIN_TOKEN);
    if (operation.isPublic) return {};
    return bearer(owner.testKey);
  }

  async function send(operation: ApiOperation, request: FuzzRequest, owner: TestTenant): Promise<Response> {
    let test = testApp.http[operation.method](urlOf(operation, request)).set(authFor(operation, owner)).set(request.headers);
    if (request.body.kind === 'json') test = test.send(request.body.value as object);
    if (request.body.kind === 'raw') test = test.set('Content-Type', request.body.contentType).send(request.body.text);
    return test;
  }

  beforeAll(async () => {
    testApp = await createTestApp({ EXPIRY_SWEEP_INTERVAL: '1h' });
    tenant = await testApp.createTenant('pro');
    digest = new StoredDataDigest(testApp.app.get(DataSource));
    operations = documentOperations(testApp.app).filter((operation) => !SKIPPED_PREFIXES.some((prefix) => operation.template.startsWith(prefix)));
    realIds = await createRealResources(testApp, operations, tenant);
  }, 120_000);
  afterAll(() => testApp?.close());

  /** What is wrong with one response, or null. */
  function problemWith(request: FuzzRequest, response: Response): string | null {
    if (response.status >= 500) return `a ${response.status}`;
    if (request.refusedBecause !== null && response.status < 400) return `accepted (${response.status}) although ${request.refusedBecause}`;
    if (response.status >= 400) {
      const problem = errorEnvelopeProblem(response);
      if (problem) return `not a catalogue error: ${problem}`;
    } else if (response.status >= 200 && response.status < 300) {
      if (typeof response.body !== 'object' || response.body === null || !('data' in response.body)) return 'a 2xx without data';
      if (response.body.meta?.request_id !== response.headers['x-request-id']) return 'a 2xx whose meta.request_id is not X-Request-Id';
    } else {
      return `an unexpected status ${response.status}`;
    }
    return null;
  }

  interface FuzzRun {
    owner: TestTenant;
    ids: Record<string, string>;
    /** Every request carries a defect, and the owner's stored rows must not change. */
    refuseAll: boolean;
    /** Rewrites a generated request before it is sent (the scratch run keeps webhooks on loopback). */
    adjust?: (request: FuzzRequest) => FuzzRequest;
  }

  interface FuzzOutcome {
    failures: string[];
    codesSeen: Map<string, number>;
    requests: number;
  }

  async function fuzz(candidates: ApiOperation[], run: FuzzRun): Promise<FuzzOutcome> {
    const outcome: FuzzOutcome = { failures: [], codesSeen: new Map(), requests: 0 };
    for (const operation of candidates) {
      // Reads change nothing, except download URLs (a download record and bandwidth), which
      // are state-changing: their requests must be refused too.
      const changesState = operation.method !== 'get' || operation.template.endsWith('/download');
      const mustRefuse = run.refuseAll && changesState;
      let lastDigest = run.refuseAll ? await digest.of(run.owner.merchantId) : {};
      const property = fc.asyncProperty(hostileRequests(operation, run.ids, mustRefuse, validBodies(run.ids)[operation.key], validQueries(run.ids)[operation.key]), async (generated) => {
        const request = run.adjust ? run.adjust(generated) : generated;
        outcome.requests += 1;
        let response: Response;
        try {
          response = await send(operation, request, run.owner);
        } catch (error) {
          const detail = error instanceof Error ? (error.stack ?? error.message).split('\n').slice(0, 6).join('\n') : String(error);
          throw new Error(`${describeRequest(operation, request)}\n→ ${detail}`);
        }
        const code = response.status >= 400 ? String(response.body?.error?.code) : String(response.status);
        outcome.codesSeen.set(code, (outcome.codesSeen.get(code) ?? 0) + 1);
        const problem = problemWith(request, response);
        if (problem) throw new Error(`${problem}\n  request: ${describeRequest(operation, request)}\n  response: ${describeResponse(response)}`);
        if (mustRefuse) {
          const now = await digest.of(run.owner.merchantId);
          const changed = changedTables(lastDigest, now);
          lastDigest = now;
          if (changed.length > 0) {
            throw new Error(`stored data changed (${changed.join(', ')})\n  request: ${describeRequest(operation, request)}\n  response: ${describeResponse(response)}`);
          }
        }
      });
      try {
        await fc.assert(property, { seed: seedFor(operation), numRuns: RUNS, endOnFailure: true, includeErrorInReport: true });
        if (run.refuseAll) {
          const changed = changedTables(lastDigest, await digest.of(run.owner.merchantId));
          if (changed.length > 0) outcome.failures.push(`${operation.key}: stored data changed (${changed.join(', ')}) while fuzzing`);
        }
      } catch (error) {
        outcome.failures.push(`${operation.key} (FUZZ_SEED=${SEED}):\n${shortenReport(error instanceof Error ? error.message : String(error))}`);
      }
    }
    if (process.env.FUZZ_VERBOSE) process.stdout.write(`${outcome.requests} requests; answers: ${JSON.stringify(Object.fromEntries(outcome.codesSeen))}\n`);
    return outcome;
  }

  function failWith(outcome: FuzzOutcome, operationCount: number): void {
    if (outcome.failures.length > 0) {
      throw new Error(`${outcome.failures.length} of ${operationCount} operations failed:\n\n${outcome.failures.join('\n\n')}`);
    }
  }

  it(
    'never answers hostile input with a 5xx, always with a catalogue error when refused, and never changes stored data',
    async () => {
      const outcome = await fuzz(operations, { owner: tenant, ids: realIds, refuseAll: true });
      expect(outcome.requests).toBeGreaterThan(operations.length);
      // The generator must reach the validation of bodies, JSON parsing and the id lookups.
      expect([...outcome.codesSeen.keys()]).toEqual(
        expect.arrayContaining(['INVALID_PARAMETER', 'INVALID_JSON', 'MISSING_REQUIRED_FIELD', 'ENTITLEMENT_NOT_FOUND']),
      );
      failWith(outcome, operations.length);
    },
    15 * 60_000,
  );

  it(
    'answers hostile but possibly valid input to state-changing operations without a 5xx (a scratch merchant, whose data may change)',
    async () => {
      const scratch = await testApp.createTenant('pro');
      const scratchIds = await createRealResources(testApp, operations, scratch);
      const stateChanging = operations.filter((operation) => operation.method !== 'get' || operation.template.endsWith('/download'));
      const outcome = await fuzz(stateChanging, {
        owner: scratch,
        ids: scratchIds,
        refuseAll: false,
        adjust: keepWebhooksOnLoopback,
      });
      expect(outcome.codesSeen.get('201') ?? 0).toBeGreaterThan(0);
      failWith(outcome, stateChanging.length);
    },
    15 * 60_000,
  );

  it('answers an explicit null in every body field without a 5xx (a scratch merchant, whose data may change)', async () => {
    const scratch = await testApp.createTenant('pro');
    const scratchIds = await createRealResources(testApp, operations, scratch);
    const bodies = validBodies(scratchIds);
    const failures: string[] = [];
    for (const operation of operations.filter((candidate) => candidate.body !== null)) {
      const path = fillPath(operation.template, Object.fromEntries(operation.pathParameters.map(({ name }) => [name, scratchIds[name] ?? 'x'])));
      for (const field of Object.keys(operation.body?.properties ?? {})) {
        const body = { ...(bodies[operation.key] ?? {}), [field]: null };
        // The valid bodies point webhooks at loopback already; a null url stays null.
        const response = await testApp.http[operation.method](path).set(authFor(operation, scratch)).send(body);
        const problem = response.status >= 500 ? 'a 5xx' : response.status >= 400 ? errorEnvelopeProblem(response) : null;
        if (problem) {
          failures.push(`${operation.key} with ${JSON.stringify(body)}: ${problem}: ${describeResponse(response)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('refuses a body over 1 MiB (an import: 20 MiB) on every operation with a 413 in the error envelope, changing nothing', async () => {
    const before = await digest.of(tenant.merchantId);
    const failures: string[] = [];
    const oversized = { name: 'A'.repeat(1024 * 1024 + 100) };
    // The one route with a larger limit (DESIGN §10): 20 MiB of CSV or JSON rows.
    const oversizedImport = { name: 'A'.repeat(20 * 1024 * 1024 + 100) };
    for (const operation of operations.filter((candidate) => candidate.body !== null)) {
      const path = fillPath(operation.template, Object.fromEntries(operation.pathParameters.map(({ name }) => [name, realIds[name] ?? 'x'])));
      const body = operation.key === 'POST /v1/entitlement-imports' ? oversizedImport : oversized;
      const response = await testApp.http[operation.method](path).set(authFor(operation)).send(body);
      if (response.status !== 413 || response.body?.error?.code !== 'PAYLOAD_TOO_LARGE' || errorEnvelopeProblem(response)) {
        failures.push(`${operation.key}: ${describeResponse(response)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(changedTables(before, await digest.of(tenant.merchantId))).toEqual([]);
  });

  it('refuses JSON nested 100 000 levels deep (under 1 MiB) on every operation with a 400, changing nothing', async () => {
    const before = await digest.of(tenant.merchantId);
    const failures: string[] = [];
    const deepArray = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const deepObject = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    for (const operation of operations.filter((candidate) => candidate.body !== null)) {
      const field = Object.keys(operation.body?.properties ?? {})[0] ?? 'zz_unknown';
      const path = fillPath(operation.template, Object.fromEntries(operation.pathParameters.map(({ name }) => [name, realIds[name] ?? 'x'])));
      for (const deep of [deepArray, deepObject]) {
        const response = await testApp.http[operation.method](path).set(authFor(operation)).set('Content-Type', 'application/json').send(`{"${field}":${deep}}`);
        if (response.status !== 400 || errorEnvelopeProblem(response)) failures.push(`${operation.key}: ${describeResponse(response)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(changedTables(before, await digest.of(tenant.merchantId))).toEqual([]);
  });

  it('refuses text PostgreSQL cannot store and bodies it cannot decode, before any route sees them (found by this suite)', async () => {
    const before = await digest.of(tenant.merchantId);
    const key = bearer(tenant.testKey);
    const product = { name: 'Fine', entitlement_type: 'permanent' };
    const cases: Array<[string, Promise<Response>, number, string, string | undefined]> = [
      ['NUL in a body field', testApp.http.post('/v1/products').set(key).send({ ...product, name: 'a\u0000b' }), 400, 'INVALID_PARAMETER', 'name'],
      ['NUL in a metadata key', testApp.http.post('/v1/products').set(key).send({ ...product, metadata: { 'k\u0000': 1 } }), 400, 'INVALID_PARAMETER', 'metadata.k\u0000'],
      ['NUL in a query value', testApp.http.get('/v1/entitlements/check?store_customer_id=%00&store_product_id=x').set(key), 400, 'INVALID_PARAMETER', 'store_customer_id'],
      ['NUL in a path id', testApp.http.get('/v1/customers/store/a%00b/entitlements').set(key), 404, 'NOT_FOUND', undefined],
      ['a lone surrogate', testApp.http.post('/v1/products').set(key).set('Content-Type', 'application/json').send('{"name":"\\ud800","entitlement_type":"permanent"}'), 400, 'INVALID_PARAMETER', 'name'],
      ['a UTF-16 body', testApp.http.post('/v1/products').set(key).set('Content-Type', 'application/json; charset=utf-16').send('_'), 400, 'INVALID_PARAMETER', undefined],
    ];
    const failures: string[] = [];
    for (const [label, pending, status, code, param] of cases) {
      const response = await pending;
      if (response.status !== status || response.body?.error?.code !== code || response.body?.error?.param !== param || errorEnvelopeProblem(response)) {
        failures.push(`${label}: expected ${status} ${code}${param ? ` (param ${param})` : ''}, got ${describeResponse(response)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(changedTables(before, await digest.of(tenant.merchantId))).toEqual([]);
  });

  it('walks every operation of the document, with the real ids it could create', () => {
    expect(operations.length).toBeGreaterThan(0);
    // A percent-encoded real id must survive the trip (guards the generator against silently never hitting a real record).
    for (const value of Object.values(realIds)) expect(decodeURIComponent(percentEncode(value))).toBe(value);
  });
});
