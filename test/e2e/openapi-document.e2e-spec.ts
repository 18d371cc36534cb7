import type { OpenAPIObject } from '@nestjs/swagger';
import { ERROR_CATALOGUE } from '../../src/errors/error-code.enum';
import { IDEMPOTENCY_KEY_HEADER } from '../../src/swagger/idempotency-openapi';
import { API_TAGS } from '../../src/swagger/api-tags';
import { buildDashboardOpenApiDocument, buildOpenApiDocument } from '../../src/swagger/openapi';
import { registeredRoutes } from '../support/routes';
import { createTestApp, TestApp } from '../support/test-app';
import { type JsonSchema, resolveSchema } from '../support/openapi-operations';

/**
 * The document as its users' tools read it (issue 13, parts 1 and 2), checked by walking every
 * operation and schema, so routes added later are held to the same rules without edits here.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const PACKAGE_VERSION = (require('../../package.json') as { version: string }).version;

interface Media {
  schema?: JsonSchema;
  examples?: Record<string, { value: unknown }>;
  example?: unknown;
}
interface Response {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, Media>;
}
interface Operation {
  description?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: Array<{ name: string; in: string; example?: unknown; schema?: JsonSchema & { example?: unknown } }>;
  requestBody?: { required?: boolean; content?: Record<string, Media> };
  responses: Record<string, Response>;
}

describe('the OpenAPI document', () => {
  let testApp: TestApp;
  let document: OpenAPIObject;
  let operations: Array<{ key: string; operation: Operation }>;

  beforeAll(async () => {
    testApp = await createTestApp();
    document = buildOpenApiDocument(testApp.app);
    operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, Operation>).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })),
    );
  });
  afterAll(() => testApp.close());

  /** Every schema of the document with the name of the property it describes. */
  function* schemas(): Generator<{ where: string; name: string | null; schema: JsonSchema & { format?: string } }> {
    function* walk(where: string, name: string | null, schema: JsonSchema & { oneOf?: JsonSchema[] }): Generator<{ where: string; name: string | null; schema: JsonSchema }> {
      yield { where, name, schema };
      for (const [property, child] of Object.entries(schema.properties ?? {})) yield* walk(`${where}.${property}`, property, child);
      if (schema.items) yield* walk(`${where}[]`, name, schema.items);
      for (const part of [...(schema.allOf ?? []), ...(schema.oneOf ?? [])]) yield* walk(where, name, part);
    }
    for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) yield* walk(name, null, schema as JsonSchema);
  }

  it('has the package version and declared tags in order, entitlements first, health and admin last', () => {
    expect(document.info.version).toBe(PACKAGE_VERSION);
    const names = (document.tags ?? []).map((tag) => tag.name);
    expect(names).toEqual(API_TAGS.map((tag) => tag.name));
    expect(names[0]).toBe('entitlements');
    expect(names.slice(-2)).toEqual(['health', 'admin']);
    for (const tag of document.tags ?? []) expect(tag.description?.length).toBeGreaterThan(10);
    const used = new Set(operations.flatMap(({ operation }) => operation.tags ?? []));
    expect([...used].filter((tag) => !names.includes(tag))).toEqual([]);
  });

  it('describes every operation, and says keys are not JWTs', () => {
    expect(operations.filter(({ operation }) => !operation.description?.trim()).map(({ key }) => key)).toEqual([]);
    for (const scheme of Object.values(document.components?.securitySchemes ?? {})) {
      expect((scheme as { bearerFormat?: string }).bearerFormat).not.toBe('JWT');
    }
  });

  it('says on every admin operation that it needs ADMIN_TOKEN and where Swagger UI takes it (§20)', () => {
    const admin = operations.filter(({ operation }) => (operation.security ?? []).some((requirement) => 'admin_token' in (requirement as object)));
    expect(admin.length).toBeGreaterThanOrEqual(8);
    expect(admin.filter(({ operation }) => !operation.description?.startsWith('**Needs `ADMIN_TOKEN`**') || !operation.description.includes('Authorize')).map(({ key }) => key)).toEqual([]);
    // And only those: an API-key route never asks for it.
    expect(operations.filter(({ operation }) => operation.description?.includes('Needs `ADMIN_TOKEN`')).length).toBe(admin.length);
  });

  it('pre-fills no Idempotency-Key: every "Try it out" would reuse it', () => {
    for (const { key, operation } of operations) {
      const header = operation.parameters?.find((parameter) => parameter.in === 'header' && parameter.name === IDEMPOTENCY_KEY_HEADER);
      if (!header) continue;
      expect({ key, example: header.example ?? header.schema?.example }).toEqual({ key, example: undefined });
    }
  });

  it('marks every response timestamp date-time, every number an integer with a format, null in nullable enums', () => {
    const problems: string[] = [];
    for (const { where, name, schema } of schemas()) {
      if (schema.type === 'number') problems.push(`${where}: number, not integer`);
      if (schema.type === 'integer' && !schema.format) problems.push(`${where}: integer without format`);
      if (schema.nullable && schema.enum && !schema.enum.includes(null)) problems.push(`${where}: nullable enum without null`);
      const isResponse = /Response|ListItem|Dto$/.test(where) && !/^(Create|Update|Reactivate|Record|Redeliver|Entitlement(Reason)?Dto)/.test(where);
      if (isResponse && schema.type === 'string' && name && /_at$/.test(name) && schema.format !== 'date-time') problems.push(`${where}: timestamp without date-time`);
    }
    expect(problems).toEqual([]);
  });

  it('enumerates error.code from the catalogue', () => {
    const detail = document.components?.schemas?.ErrorDetailDto as JsonSchema;
    const codes = [...new Set(Object.values(ERROR_CATALOGUE).map((entry) => entry.renderedCode))].sort();
    // A named enum (its own schema, ErrorCode), so generated clients get one type for it.
    const code = resolveSchema(detail.properties?.code, document.components?.schemas as Record<string, JsonSchema>);
    expect([...(code.enum ?? [])].sort()).toEqual(codes);
  });

  it('gives 400, 413, 500 and default responses their own examples, and rate-limit headers where they are carried', () => {
    const problems: string[] = [];
    for (const { key, operation } of operations) {
      if (!operation.security || operation.security.length === 0) continue;
      const statuses = ['500', 'default', ...(operation.requestBody ? ['400', '413'] : [])];
      for (const status of statuses) {
        const examples = operation.responses[status]?.content?.['application/json']?.examples ?? {};
        if (Object.keys(examples).length === 0) problems.push(`${key} ${status}: no example`);
        for (const [code, example] of Object.entries(examples)) {
          const error = (example.value as { error?: { code?: string } }).error;
          if (error?.code !== code) problems.push(`${key} ${status}: example ${code} shows ${error?.code}`);
        }
      }
      if (operation.requestBody) {
        const badRequest = Object.keys(operation.responses['400']?.content?.['application/json']?.examples ?? {});
        for (const code of ['INVALID_JSON', 'INVALID_PARAMETER']) if (!badRequest.includes(code)) problems.push(`${key} 400: ${code} not listed`);
      }
      if (!key.includes(' /admin/') && operation.responses['429'] && !operation.responses['429'].headers?.['X-RateLimit-Limit']) {
        problems.push(`${key} 429: no X-RateLimit-Limit`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('says what the validators enforce: lengths, ranges, lowercase filters, optional redeliver body, one delivery method', () => {
    const components = document.components?.schemas as Record<string, JsonSchema & { maxItems?: number; oneOf?: unknown[]; discriminator?: { propertyName: string } }>;
    expect(components.CreateUploadUrlDto.properties?.file_size).toMatchObject({ type: 'integer', minimum: 1 });
    expect(components.CreateProductDto.properties?.name).toMatchObject({ minLength: 1, maxLength: 255 });
    expect(components.CreateProductDto.properties?.store_variant_ids).toMatchObject({ maxItems: 100, items: { maxLength: 255 } });
    expect(components.CreateProductDto.properties?.fulfillment_config).toMatchObject({ discriminator: { propertyName: 'delivery_method' } });
    expect(components.WebhookEndpointResponseDto.properties?.disabled_reason).toMatchObject({ nullable: true, enum: expect.arrayContaining([null]) });
    const list = document.paths['/v1/entitlements'].get as unknown as Operation;
    const parameter = (name: string) => list.parameters?.find((each) => each.name === name)?.schema;
    expect(parameter('limit')).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    expect(parameter('status')?.enum).toEqual(expect.arrayContaining(['active', 'ACTIVE']));
    expect(parameter('source')?.enum).toEqual(expect.arrayContaining(['api', 'API']));
    const redeliver = document.paths['/v1/events/{event_id}/redeliver'].post as unknown as Operation;
    expect(redeliver.requestBody?.required).toBe(false);
  });
});

describe("the dashboard's OpenAPI document", () => {
  let testApp: TestApp;
  let dashboard: OpenAPIObject;

  beforeAll(async () => {
    testApp = await createTestApp();
    dashboard = buildDashboardOpenApiDocument(testApp.app);
  });
  afterAll(() => testApp.close());

  const operationsOf = (document: OpenAPIObject) =>
    Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, Operation>).map(([method, operation]) => ({ method, path, key: `${method.toUpperCase()} ${path}`, operation })),
    );

  it('holds exactly the dashboard routes, which the public document leaves out', () => {
    const dashboardRoutes = registeredRoutes(testApp.app)
      .filter((route) => route.isDashboard)
      .map((route) => `${route.method} ${route.path.replace(/:([a-z_]+)/g, '{$1}')}`)
      .sort();
    expect(operationsOf(dashboard).map(({ key }) => key).sort()).toEqual(dashboardRoutes);
    expect(Object.keys(buildOpenApiDocument(testApp.app).paths).filter((path) => path.startsWith('/dashboard/'))).toEqual([]);
  });

  it('documents the session cookie, the CSRF header of every write and the mode header of mode-specific routes', () => {
    expect(dashboard.components?.securitySchemes?.dashboard_session).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'eh_session' });
    const open = ['POST /dashboard/api/sign-in', 'POST /dashboard/api/setup'];
    for (const { method, key, operation } of operationsOf(dashboard)) {
      expect({ key, described: Boolean(operation.description?.trim()) }).toEqual({ key, described: true });
      const headers = (operation.parameters ?? []).filter((parameter) => parameter.in === 'header').map((parameter) => parameter.name);
      if (open.includes(key)) {
        expect({ key, security: operation.security }).toEqual({ key, security: [] });
        continue;
      }
      expect({ key, security: operation.security }).toEqual({ key, security: [{ dashboard_session: [] }] });
      expect({ key, csrf: headers.includes('X-CSRF-Token') }).toEqual({ key, csrf: method !== 'get' });
      expect(operation.responses['401']).toBeDefined();
    }
    const overview = dashboard.paths['/dashboard/api/overview'].get as unknown as Operation;
    expect(overview.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ in: 'header', name: 'Eh-Mode', required: true })]));
  });

  it('is served with its Swagger UI at /docs/dashboard', async () => {
    const json = await testApp.http.get('/docs/dashboard/openapi.json').expect(200);
    expect(json.body.paths['/dashboard/api/session']).toBeDefined();
    const page = await testApp.http.get('/docs/dashboard').redirects(1).expect(200);
    expect(page.text).toContain('swagger-ui');
    // The public UI is still the public document.
    const publicJson = await testApp.http.get('/docs/openapi.json').expect(200);
    expect(publicJson.body.paths['/dashboard/api/session']).toBeUndefined();
  });
});
