import type { Response } from 'supertest';
import { describeResponse, errorEnvelopeProblem, truncate } from '../support/error-envelope';
import { ApiOperation, documentOperations, fillPath, JsonSchema } from '../support/openapi-operations';
import { bearer, createTestApp, TEST_ADMIN_TOKEN, TestApp, TestTenant } from '../support/test-app';
import { createRealResources, validBodies, validQueries } from '../support/valid-requests';

/** Health probes and the JWKS take no input. */
const SKIPPED_PREFIXES = ['/health/', '/.well-known/'];

/**
 * The values every string gets. NUL, a lone surrogate and 64 KiB can't be stored or pass any
 * bound: they must be refused, a 400 naming the field (a path segment: 404, DESIGN §4). A bidi
 * override and the empty string may be valid for some fields (free text, optional values): they
 * are either accepted or refused the same way.
 */
const VALUES: Array<{ name: string; value: string; mustRefuse: boolean }> = [
  { name: 'NUL', value: 'a\u0000b', mustRefuse: true },
  { name: 'lone surrogate', value: 'a\ud800b', mustRefuse: true },
  { name: '64 KiB', value: 'a'.repeat(64 * 1024), mustRefuse: true },
  { name: 'bidi override', value: 'a\u202eb', mustRefuse: false },
  { name: 'empty string', value: '', mustRefuse: false },
];

/** One place a string goes: a body field (`steps` into the JSON), a query or path parameter, or a header. */
interface StringSlot {
  in: 'body' | 'query' | 'path' | 'header';
  /** As an error's `param` names it: `name`, `fulfillment_config.access_url`, `line_items[0].store_line_item_id`. */
  name: string;
  steps: Array<string | number>;
}

const isString = (schema: JsonSchema): boolean => schema.type === 'string' || (schema.enum !== undefined && schema.enum.every((value) => typeof value === 'string'));

/** Every string of a body schema, objects and arrays followed (an array's first element stands for all). */
function bodySlots(schema: JsonSchema, prefix: string, steps: Array<string | number>): StringSlot[] {
  return Object.entries(schema.properties ?? {}).flatMap(([field, property]) => {
    const name = prefix ? `${prefix}.${field}` : field;
    if (field === 'metadata') return [];
    if (isString(property)) return [{ in: 'body' as const, name, steps: [...steps, field] }];
    if (property.type === 'array' && property.items) {
      if (isString(property.items)) return [{ in: 'body' as const, name: `${name}[0]`, steps: [...steps, field, 0] }];
      return bodySlots(property.items, `${name}[0]`, [...steps, field, 0]);
    }
    if (property.properties) return bodySlots(property, name, [...steps, field]);
    return [];
  });
}

function slotsOf(operation: ApiOperation): StringSlot[] {
  const parameter = (where: 'query' | 'path' | 'header') => (each: { name: string; schema: JsonSchema }) =>
    isString(each.schema) || !each.schema.type ? [{ in: where, name: each.name, steps: [] }] : [];
  return [
    ...operation.pathParameters.flatMap(parameter('path')),
    ...operation.queryParameters.flatMap(parameter('query')),
    ...operation.headerParameters.flatMap(parameter('header')),
    ...(operation.body ? bodySlots(operation.body, '', []) : []),
  ];
}

/** A copy of `body` with `value` at `steps`, creating the objects and arrays on the way. */
function withValue(body: Record<string, unknown>, steps: Array<string | number>, value: string): Record<string, unknown> {
  const copy = structuredClone(body);
  let node: Record<string | number, unknown> = copy;
  steps.forEach((step, index) => {
    if (index === steps.length - 1) {
      node[step] = value;
      return;
    }
    const next = steps[index + 1];
    if (typeof node[step] !== 'object' || node[step] === null) node[step] = typeof next === 'number' ? [] : {};
    node = node[step] as Record<string | number, unknown>;
  });
  return copy;
}

/** Percent-encodes for a URL; a lone surrogate goes as the bytes a careless client sends (WTF-8: invalid UTF-8). */
function encodeForUrl(value: string): string {
  return value.replace(/[\ud800-\udfff]/gu, '\u0000SURROGATE\u0000').split('\u0000SURROGATE\u0000').map(encodeURIComponent).join('%ED%A0%80');
}

/** Whether a 400 names the slot: `param` is the field (or the array or object holding it), or the message quotes it. */
function namesField(response: Response, slot: StringSlot): boolean {
  const error = response.body?.error as { param?: string; message?: string } | undefined;
  const param = error?.param;
  if (param !== undefined && (param === slot.name || slot.name.startsWith(`${param}.`) || slot.name.startsWith(`${param}[`))) return true;
  if (slot.in === 'header' && param?.toLowerCase() === slot.name.toLowerCase()) return true;
  return (error?.message ?? '').includes(slot.name.replace(/\[0\]$/, ''));
}

/**
 * Every string, every route (issue 21 item 2): walks the OpenAPI document the app serves and
 * sends each string field and parameter of every operation NUL, a lone surrogate, a bidi override,
 * 64 KiB and the empty string, one at a time, in an otherwise valid request. Never a 5xx; every
 * 4xx a catalogue error; NUL, lone surrogates and 64 KiB always refused, a 400 naming the field.
 */
describe('every string, every route (the OpenAPI walk)', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let operations: ApiOperation[];
  let ids: Record<string, string>;

  beforeAll(async () => {
    testApp = await createTestApp({ EXPIRY_SWEEP_INTERVAL: '1h' });
    tenant = await testApp.createTenant('pro');
    operations = documentOperations(testApp.app).filter((operation) => !SKIPPED_PREFIXES.some((prefix) => operation.template.startsWith(prefix)));
    ids = await createRealResources(testApp, operations, tenant);
  }, 120_000);
  afterAll(() => testApp?.close());

  function send(operation: ApiOperation, slot: StringSlot, value: string): Promise<Response> {
    const pathValues = Object.fromEntries(operation.pathParameters.map((parameter) => [parameter.name, encodeForUrl(ids[parameter.name] ?? 'x')]));
    if (slot.in === 'path') pathValues[slot.name] = encodeForUrl(value);
    const query: Record<string, string> = { ...(validQueries(ids)[operation.key] ?? {}) };
    if (slot.in === 'query') query[slot.name] = value;
    const queryString = Object.entries(query).map(([name, each]) => `${encodeForUrl(name)}=${encodeForUrl(each)}`).join('&');
    const headers: Record<string, string> = operation.isAdmin ? bearer(TEST_ADMIN_TOKEN) : operation.isPublic ? {} : bearer(tenant.testKey);
    if (slot.in === 'header') headers[slot.name] = value;
    const path = fillPath(operation.template, pathValues, true);
    let test = testApp.http[operation.method](queryString ? `${path}?${queryString}` : path).set(headers);
    const base = validBodies(ids)[operation.key] ?? {};
    if (operation.body) test = test.send(slot.in === 'body' ? withValue(base, slot.steps, value) : base);
    return test;
  }

  it('answers every hostile string of every operation without a 5xx, refusing what it must with a 400 naming the field', async () => {
    const failures: string[] = [];
    let requests = 0;
    for (const operation of operations) {
      for (const slot of slotsOf(operation)) {
        for (const { name, value, mustRefuse } of VALUES) {
          // A header carries Latin-1 only: NUL, lone surrogates and U+202E can't be sent in one at all.
          if (slot.in === 'header' && name !== '64 KiB' && name !== 'empty string') continue;
          const response = await send(operation, slot, value);
          requests += 1;
          const where = `${operation.key} ${slot.in} '${slot.name}' = ${name}`;
          const problem =
            response.status >= 500
              ? `a ${response.status}`
              : response.status >= 400
                ? (errorEnvelopeProblem(response) ??
                  (slot.in === 'path' && mustRefuse && response.status !== 404 && response.status !== 400 ? `a ${response.status}, not 404` : null) ??
                  (slot.in !== 'path' && mustRefuse && response.status !== 400 ? `a ${response.status}, not 400` : null) ??
                  (slot.in !== 'path' && response.status === 400 && !namesField(response, slot) ? 'a 400 that does not name the field' : null))
                : mustRefuse
                  ? `accepted (${response.status})`
                  : null;
          if (problem) failures.push(`${where}: ${problem} → ${truncate(describeResponse(response), 300)}`);
        }
      }
    }
    expect(requests).toBeGreaterThan(300);
    expect(failures).toEqual([]);
  }, 600_000);

  it('bounds every store id at 255, reads limit as decimal digits only, and refuses the fields of a GET body', async () => {
    const key = bearer(tenant.testKey);
    const longest = 's'.repeat(255);
    const put = (storeId: string) =>
      testApp.http.put(`/v1/subscriptions/store/${storeId}`).set(key).send({ store_customer_id: 'bound_customer', product_id: ids.subscription_product_id, status: 'active' });
    expect((await put(longest)).status).toBe(201);
    const over = await put(`${longest}s`).expect(400);
    expect(over.body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'store_subscription_id' });
    for (const limit of ['1e1', '0x10', '10.0', ' 10', '+10']) {
      const response = await testApp.http.get(`/v1/products?limit=${encodeURIComponent(limit)}`).set(key).expect(400);
      expect(response.body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'limit' });
    }
    expect((await testApp.http.get('/v1/products?limit=10').set(key).expect(200)).body.pagination.limit).toBe(10);
    const withBody = await testApp.http.get('/v1/products').set(key).send({ name: 'x' }).expect(400);
    expect(withBody.body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'name' });
    await testApp.http.get('/v1/products').set(key).send({}).expect(200);
  });
});
