import type { OpenAPIObject } from '@nestjs/swagger';
import { SCOPE_CHOICES } from '../../src/auth/scopes';
import { EVENT_TYPES } from '../../src/database/domain-event';
import { ERROR_CATALOGUE } from '../../src/errors/error-code.enum';
import { IMPORT_ROW_ERROR_CODES } from '../../src/imports/import-row-parser';
import { DELIVERED_EVENT_TYPES } from '../../src/webhooks/test-event-type';
import { buildOpenApiDocument } from '../../src/swagger/openapi';
import { type JsonSchema, resolveSchema } from '../support/openapi-operations';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * The document says exactly what the service accepts and answers, over the whole document (issue
 * 23): a route added later without a bound, a date-time string without its format or a closed set
 * without its enum fails here, not in a client generated from it.
 */
interface Schema extends JsonSchema {
  format?: string;
  const?: unknown;
  pattern?: string;
  maxItems?: number;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  example?: unknown;
  schema?: Schema & { example?: unknown };
}
interface Media {
  schema?: Schema;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, Media> };
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, Media> }>;
  'x-required-scopes'?: string[];
}

/** Names of timestamps, in requests, responses and query filters alike. */
const TIMESTAMP_NAME = /(_at|_after|_before|_period_end|^timestamp)$/;
/** The closed sets a client switches on: a string of one of these names is always an enum. */
const CLOSED_SET_NAMES = ['code', 'type', 'event_type', 'scopes', 'status', 'mode', 'plan', 'source', 'entitlement_type', 'delivery_method', 'upload_status', 'access_type', 'enabled_events'];
/** A request body that is a document rather than a field: the import's CSV, bounded by the route's 20 MiB body limit (its 413). */
const DOCUMENT_BODIES = ['text/csv'];

describe('the OpenAPI document is precise', () => {
  let testApp: TestApp;
  let document: OpenAPIObject;
  let components: Record<string, Schema>;
  let operations: Array<{ key: string; operation: Operation }>;

  beforeAll(async () => {
    testApp = await createTestApp();
    document = buildOpenApiDocument(testApp.app);
    components = (document.components?.schemas ?? {}) as Record<string, Schema>;
    operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, Operation>).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })),
    );
  });
  afterAll(() => testApp.close());

  /** Every schema under `schema`, with a readable location and the property name it describes, following references once. */
  function* walk(where: string, name: string | null, schema: Schema | undefined, seen = new Set<string>()): Generator<{ where: string; name: string | null; schema: Schema }> {
    if (!schema) return;
    if (schema.$ref) {
      if (seen.has(schema.$ref)) return;
      const target = schema.$ref.replace('#/components/schemas/', '');
      yield* walk(`${where}→${target}`, name, components[target], new Set([...seen, schema.$ref]));
      return;
    }
    yield { where, name, schema };
    for (const [property, child] of Object.entries(schema.properties ?? {})) yield* walk(`${where}.${property}`, property, child, seen);
    if (schema.items) yield* walk(`${where}[]`, name, schema.items, seen);
    for (const part of [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])]) yield* walk(where, name, part, seen);
  }

  /** What a client sends: every parameter's schema and every request body's, per operation. */
  function* inputs(): Generator<{ where: string; name: string | null; schema: Schema }> {
    for (const { key, operation } of operations) {
      for (const parameter of operation.parameters ?? []) yield* walk(`${key} ${parameter.in} ${parameter.name}`, parameter.name, parameter.schema);
      for (const [mediaType, media] of Object.entries(operation.requestBody?.content ?? {})) {
        if (!DOCUMENT_BODIES.includes(mediaType)) yield* walk(`${key} body`, null, media.schema);
      }
    }
  }

  /** Everything of the document: the components and every operation's own schemas (parameters, inline bodies and responses). */
  function* everything(): Generator<{ where: string; name: string | null; schema: Schema }> {
    for (const [name, schema] of Object.entries(components)) yield* walk(name, null, schema, new Set([`#/components/schemas/${name}`]));
    yield* inputs();
    for (const { key, operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const media of Object.values(response.content ?? {})) if (!media.schema?.$ref) yield* walk(`${key} ${status}`, null, media.schema);
      }
    }
  }

  it('bounds every input: strings a maxLength (or an enum), arrays a maxItems, integers a range; only metadata is free-form', () => {
    const problems = new Set<string>();
    for (const { where, name, schema } of inputs()) {
      if (schema.type === 'string' && schema.maxLength === undefined && !schema.enum && schema.const === undefined) problems.add(`${where}: string without maxLength`);
      if (schema.type === 'array' && schema.maxItems === undefined) problems.add(`${where}: array without maxItems`);
      if (schema.type === 'integer' && (schema.minimum === undefined || schema.maximum === undefined)) problems.add(`${where}: integer without minimum and maximum`);
      if (schema.type === 'object' && schema.additionalProperties && name !== 'metadata') problems.add(`${where}: free-form object`);
    }
    expect([...problems]).toEqual([]);
  });

  it('gives every date-time string its format, in requests, responses and query filters', () => {
    const problems = new Set<string>();
    for (const { where, name, schema } of everything()) {
      // (An import row's expires_at is anyOf a date-time and '', an empty CSV cell: its parts are walked.)
      if (schema.type === 'string' && name !== null && TIMESTAMP_NAME.test(name) && !schema.enum && schema.format !== 'date-time') problems.add(`${where}: no format date-time`);
    }
    expect([...problems]).toEqual([]);
    // The ones issue 23 found without it, by name.
    const format = (schema: string, property: string) => resolveSchema(components[schema].properties?.[property], components as Record<string, JsonSchema>) as Schema;
    for (const [schema, property] of [
      ['CreateEntitlementDto', 'expires_at'],
      ['UpdateEntitlementDto', 'expires_at'],
      ['ReactivateEntitlementDto', 'expires_at'],
      ['CreateOrderDto', 'placed_at'],
      ['PutSubscriptionDto', 'current_period_end'],
      ['SubscriptionResponseDto', 'current_period_end'],
    ]) {
      expect({ schema, property, format: format(schema, property).format }).toEqual({ schema, property, format: 'date-time' });
    }
  });

  it('says booleans are booleans: no string enum of "true" and "false"', () => {
    const problems = [...everything()].filter(({ schema }) => schema.type === 'string' && schema.enum?.includes('true') && schema.enum?.includes('false')).map(({ where }) => where);
    expect(problems).toEqual([]);
    const check = (document.paths['/v1/entitlements/check'].get as unknown as Operation).parameters?.find((parameter) => parameter.name === 'include_token');
    expect(check?.schema?.type).toBe('boolean');
  });

  it('enumerates every closed set: error and row codes from the catalogue, scopes, event types, statuses', () => {
    const problems = new Set<string>();
    for (const { where, name, schema } of everything()) {
      if (name === null || !CLOSED_SET_NAMES.includes(name)) continue;
      const values = schema.type === 'array' ? schema.items : schema;
      const resolved = resolveSchema(values, components as Record<string, JsonSchema>) as Schema;
      if (resolved.type === 'string' && !resolved.enum) problems.add(`${where}: ${name} without enum`);
    }
    expect([...problems]).toEqual([]);
    const enumOf = (schema: string, property: string) => {
      const field = resolveSchema(components[schema].properties?.[property], components as Record<string, JsonSchema>) as Schema;
      return [...((field.type === 'array' ? resolveSchema(field.items, components as Record<string, JsonSchema>) : field).enum ?? [])];
    };
    const renderedCodes = [...new Set(Object.values(ERROR_CATALOGUE).map((entry) => entry.renderedCode))];
    expect(enumOf('ErrorDetailDto', 'code').sort()).toEqual([...renderedCodes].sort());
    expect(enumOf('ImportRowErrorDto', 'code')).toEqual([...IMPORT_ROW_ERROR_CODES]);
    expect(enumOf('CreateApiKeyDto', 'scopes')).toEqual([...SCOPE_CHOICES]);
    expect(enumOf('ApiKeyResponseDto', 'scopes')).toEqual([...SCOPE_CHOICES]);
    expect(enumOf('EventResponseDto', 'type')).toEqual([...EVENT_TYPES]);
    expect(enumOf('WebhookDeliveryResponseDto', 'event_type')).toEqual([...DELIVERED_EVENT_TYPES]);
  });

  it('a property name enumerated somewhere is enumerated everywhere', () => {
    const enumerated = new Set<string>();
    const strings: Array<{ where: string; name: string; schema: Schema }> = [];
    for (const { where, name, schema } of everything()) {
      if (name === null) continue;
      const values = (schema.type === 'array' ? resolveSchema(schema.items, components as Record<string, JsonSchema>) : schema) as Schema;
      // `enum: [null]` ("absent or null": another delivery method's field) and `['']` (an empty CSV cell) are no closed sets.
      if (values.enum?.some((value) => value !== null && value !== '')) enumerated.add(name);
      else if (values.type === 'string' && !values.enum) strings.push({ where, name, schema: values });
    }
    expect(strings.filter(({ name }) => enumerated.has(name)).map(({ where }) => where)).toEqual([]);
  });

  it("shows statuses in examples as the API writes them, lower case", () => {
    const problems: string[] = [];
    function visit(where: string, value: unknown): void {
      if (Array.isArray(value)) value.forEach((item, index) => visit(`${where}[${index}]`, item));
      else if (typeof value === 'object' && value !== null) {
        for (const [key, child] of Object.entries(value)) {
          if (key === 'status' && typeof child === 'string' && child !== child.toLowerCase()) problems.push(`${where}.status: ${child}`);
          visit(`${where}.${key}`, child);
        }
      }
    }
    for (const { where, schema } of everything()) visit(`${where} example`, schema.example);
    for (const { key, operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const media of Object.values(response.content ?? {})) {
          visit(`${key} ${status} example`, media.example);
          for (const [name, example] of Object.entries(media.examples ?? {})) visit(`${key} ${status} examples.${name}`, example.value);
        }
      }
      for (const media of Object.values(operation.requestBody?.content ?? {})) for (const [name, example] of Object.entries(media.examples ?? {})) visit(`${key} body examples.${name}`, example.value);
    }
    expect(problems).toEqual([]);
  });

  it("path parameters: our ids with their pattern, no example, and the routes whose answers give one; store ids with a working example", () => {
    const routes = new Set(operations.map(({ key }) => key));
    const problems: string[] = [];
    for (const { key, operation } of operations) {
      for (const parameter of (operation.parameters ?? []).filter((each) => each.in === 'path')) {
        const where = `${key} {${parameter.name}}`;
        const example = parameter.example ?? parameter.schema?.example;
        if (parameter.name.startsWith('store_')) {
          if (example === undefined) problems.push(`${where}: a store id without an example`);
          continue;
        }
        if (!parameter.schema?.pattern) problems.push(`${where}: no pattern`);
        if (example !== undefined) problems.push(`${where}: an example id (it would pre-fill a 404)`);
        const named = [...(parameter.description ?? '').matchAll(/`((?:GET|POST|PUT|PATCH|DELETE) \/[^`]*)`/g)].map((match) => match[1]);
        if (named.length === 0) problems.push(`${where}: names no route whose answer gives one`);
        for (const route of named) if (!routes.has(route)) problems.push(`${where}: names ${route}, which the document doesn't have`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('declares the rate-limit headers on every response of a keyed route (any answer after the key is counted has them), the idempotency 409 included', () => {
    const problems: string[] = [];
    for (const { key, operation } of operations) {
      if (!operation['x-required-scopes']) continue;
      for (const [status, response] of Object.entries(operation.responses)) if (!response.headers?.['X-RateLimit-Limit']) problems.push(`${key} ${status}`);
    }
    expect(problems).toEqual([]);
  });
});
