import type { INestApplication } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import jestOpenAPI from 'jest-openapi';
import OpenAPIRequestCoercer from 'openapi-request-coercer';
import OpenAPIRequestValidator from 'openapi-request-validator';
import * as responseValidatorModule from 'openapi-response-validator';
import type OpenAPIResponseValidator from 'openapi-response-validator';
import type { OpenAPIV3 } from 'openapi-types';
import type { Response } from 'supertest';
import { ERROR_CATALOGUE } from '../../src/errors/error-code.enum';
import { buildDashboardOpenApiDocument, buildOpenApiDocument } from '../../src/swagger/openapi';

/**
 * Both directions of the contract, on every request a suite sends through the test app:
 * - every response is checked against the OpenAPI document the app serves (the same one
 *   `npm run openapi:check` keeps equal to the committed openapi.json);
 * - every request the service accepted (a 2xx or 3xx) must satisfy that document too: path and
 *   query parameters, headers and body. A client generated from the document must be able to
 *   send whatever the service accepts.
 * The dashboard's own routes are checked against their document (openapi.dashboard.json) alike.
 * Routes outside both (the local storage server, unknown paths, /docs) are not checked.
 */
let installedFor: OpenAPIObject | null = null;

interface DocumentedOperation {
  pattern: RegExp;
  method: string;
  template: string;
  /** Compiled on the first request a suite sends to the operation (a suite sends to few of them). */
  checks(): { validator: OpenAPIRequestValidator; coercer: OpenAPIRequestCoercer };
}
let templates: Array<{ pattern: RegExp; methods: Set<string> }> = [];
let operations: DocumentedOperation[] = [];

/** Every status the error catalogue can answer with. */
const CATALOGUE_STATUSES = [...new Set(Object.values(ERROR_CATALOGUE).map((entry) => entry.status))].map(String);

/**
 * jest-openapi ignores an operation's `default` response, so a catalogue error the operation does
 * not list (a 413 or a 500, say) would fail as "no such status". The copy it checks against
 * spells `default` out for every catalogue status the operation leaves unlisted.
 */
function withDefaultsSpelledOut(document: OpenAPIObject): OpenAPIObject {
  const copy = JSON.parse(JSON.stringify(document)) as OpenAPIObject;
  for (const pathItem of Object.values(copy.paths)) {
    for (const operation of Object.values(pathItem) as Array<{ responses?: Record<string, unknown> }>) {
      const fallback = operation.responses?.default;
      if (!operation.responses || fallback === undefined) continue;
      for (const status of CATALOGUE_STATUSES) operation.responses[status] ??= fallback;
    }
  }
  return copy;
}

type ResponseValidatorArguments = ConstructorParameters<typeof OpenAPIResponseValidator>[0];

/**
 * jest-openapi builds a new response validator for every response it checks, compiling the
 * response's schemas with all of the document's components again: about 18 ms of CPU each, which
 * came to minutes of a run's CPU over its tens of thousands of responses. A validator depends only
 * on its arguments (the documented response, its status, the components), so one compiled
 * validator per documented response serves every check; jest-openapi's own logic (finding the
 * path, method and status; its messages) is unchanged.
 */
function compileResponseValidatorsOnce(): void {
  const exported = responseValidatorModule as unknown as { default: typeof OpenAPIResponseValidator; compilesOnce?: true };
  if (exported.compilesOnce) return;
  const Compile = exported.default;
  const compiled = new WeakMap<object, WeakMap<object, Map<string, OpenAPIResponseValidator>>>();
  function compiledOnce(parameters: ResponseValidatorArguments): OpenAPIResponseValidator {
    const entries = Object.entries(parameters.responses ?? {});
    const components = parameters.components;
    if (entries.length !== 1 || !components || Object.keys(parameters).some((name) => name !== 'responses' && name !== 'components')) {
      return new Compile(parameters);
    }
    const [[status, documented]] = entries;
    const byResponse = compiled.get(components) ?? new WeakMap<object, Map<string, OpenAPIResponseValidator>>();
    compiled.set(components, byResponse);
    const byStatus = byResponse.get(documented as object) ?? new Map<string, OpenAPIResponseValidator>();
    byResponse.set(documented as object, byStatus);
    const validator = byStatus.get(status) ?? new Compile(parameters);
    byStatus.set(status, validator);
    return validator;
  }
  // Called with `new` by openapi-validator: a constructor that returns an object yields that object.
  exported.default = compiledOnce as unknown as typeof OpenAPIResponseValidator;
  exported.compilesOnce = true;
}

/**
 * The public and the dashboard documents as one, for checking: the dashboard's own routes are held
 * to their document (openapi.dashboard.json) the same way. Both are built from one set of classes,
 * so a schema name shared by the two is the same schema.
 */
function bothDocuments(app: INestApplication): OpenAPIObject {
  const publicDocument = buildOpenApiDocument(app);
  const dashboard = buildDashboardOpenApiDocument(app);
  return {
    ...publicDocument,
    paths: { ...publicDocument.paths, ...dashboard.paths },
    components: {
      ...publicDocument.components,
      schemas: { ...dashboard.components?.schemas, ...publicDocument.components?.schemas },
      securitySchemes: { ...dashboard.components?.securitySchemes, ...publicDocument.components?.securitySchemes },
    },
  };
}

export function installContract(app: INestApplication): void {
  if (installedFor) return;
  compileResponseValidatorsOnce();
  installedFor = bothDocuments(app);
  jestOpenAPI(withDefaultsSpelledOut(installedFor) as unknown as Parameters<typeof jestOpenAPI>[0]);
  templates = Object.entries(installedFor.paths).map(([template, pathItem]) => ({
    pattern: pathPattern(template),
    methods: new Set(Object.keys(pathItem).map((method) => method.toUpperCase())),
  }));
  operations = requestValidators(installedFor);
}

/** A path template as a regular expression with one named group per path parameter. */
function pathPattern(template: string): RegExp {
  const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^/}]+)\}/g, (_match, name: string) => `(?<${name}>[^/]+)`);
  return new RegExp(`^${escaped}$`);
}

function requestValidators(document: OpenAPIObject): DocumentedOperation[] {
  const componentSchemas = (document.components?.schemas ?? {}) as unknown as ConstructorParameters<typeof OpenAPIRequestValidator>[0]['componentSchemas'];
  const result: DocumentedOperation[] = [];
  for (const [template, pathItem] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(pathItem) as Array<[string, OpenAPIV3.OperationObject]>) {
      const parameters = (operation.parameters ?? []) as OpenAPIV3.ParameterObject[];
      let compiled: ReturnType<DocumentedOperation['checks']> | null = null;
      result.push({
        pattern: pathPattern(template),
        method: method.toUpperCase(),
        template,
        checks: () =>
          (compiled ??= {
            validator: new OpenAPIRequestValidator({
              parameters,
              requestBody: operation.requestBody as OpenAPIV3.RequestBodyObject | undefined,
              componentSchemas,
              // Query parameters the document doesn't list are refused (the service refuses them).
              additionalQueryProperties: false,
            }),
            coercer: new OpenAPIRequestCoercer({ parameters }),
          }),
      });
    }
  }
  return result;
}

interface SentRequest {
  method?: string;
  path?: string;
  getHeaders?: () => Record<string, unknown>;
}

/** The body supertest sent: an object, a JSON string (suites send raw JSON) parsed, or other text (CSV) as it is. */
function sentBody(response: Response, contentType: string): unknown {
  const data = (response as unknown as { request?: { _data?: unknown } }).request?._data;
  if (typeof data !== 'string' || !contentType.includes('json')) return data;
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}

/** The request of an accepted response must satisfy the document: parameters, headers, body. */
function requestSatisfiesContract(response: Response): void {
  const sent = (response as unknown as { req?: SentRequest }).req;
  const [path, queryString = ''] = (sent?.path ?? '').split('?');
  const operation = operations.find((candidate) => candidate.method === sent?.method && candidate.pattern.test(path));
  if (!operation) return;
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(queryString)) {
    const previous = query[name];
    query[name] = previous === undefined ? value : ([] as string[]).concat(previous, value);
  }
  const headers = Object.fromEntries(Object.entries(sent?.getHeaders?.() ?? {}).map(([name, value]) => [name.toLowerCase(), String(value)]));
  const params = Object.fromEntries(Object.entries(operation.pattern.exec(path)?.groups ?? {}).map(([name, value]) => [name, decodeURIComponent(value)]));
  const request = { method: operation.method, path, headers, query, params, body: sentBody(response, headers['content-type'] ?? 'application/json') };
  const { validator, coercer } = operation.checks();
  coercer.coerce(request);
  const errors = validator.validateRequest(request) as { errors?: unknown[] } | undefined;
  if (errors?.errors?.length) {
    throw new Error(
      `The service accepted (${response.status}) a request the OpenAPI document refuses: ${operation.method} ${operation.template}\n` +
        `query ${JSON.stringify(query)}, body ${JSON.stringify(request.body)}\n${JSON.stringify(errors.errors, null, 2)}`,
    );
  }
}

/** Whether the document has an operation for the response's request (method and path). */
function documentedPath(response: Response): boolean {
  const request = (response as unknown as { req?: { path?: string; method?: string } }).req;
  const path = request?.path?.split('?')[0] ?? '';
  // The validator decodes the path and throws on a malformed escape (the fuzzing suite sends
  // those on purpose, and checks those responses' error shape itself).
  try {
    decodeURIComponent(path);
  } catch {
    return false;
  }
  const method = request?.method ?? '';
  return templates.some((template) => template.pattern.test(path) && template.methods.has(method));
}

/**
 * A response that sends the rate-limit headers must be one the document declares them on (its
 * status, or `default` when the operation lists no such status): jest-openapi checks bodies only.
 */
function rateLimitHeadersDeclared(response: Response): void {
  if (response.headers['x-ratelimit-limit'] === undefined || !installedFor) return;
  const sent = (response as unknown as { req?: SentRequest }).req;
  const path = (sent?.path ?? '').split('?')[0];
  const operation = operations.find((candidate) => candidate.method === sent?.method && candidate.pattern.test(path));
  if (!operation) return;
  const responses = (installedFor.paths[operation.template] as Record<string, { responses?: Record<string, { headers?: Record<string, unknown> }> }>)[
    operation.method.toLowerCase()
  ]?.responses;
  const documented = responses?.[String(response.status)] ?? responses?.default;
  if (!documented?.headers?.['X-RateLimit-Limit']) {
    throw new Error(`${operation.method} ${operation.template} answered ${response.status} with X-RateLimit-* headers its documented response doesn't declare`);
  }
}

/**
 * A response in a media type other than JSON (the operator's CSV): jest-openapi checks JSON bodies
 * only, so this checks the operation documents that media type for the status, as a string.
 * Returns false for JSON responses, which jest-openapi checks.
 */
function nonJsonBodyDocumented(response: Response): boolean {
  const mediaType = String(response.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (mediaType === '' || mediaType === 'application/json' || !installedFor) return false;
  const sent = (response as unknown as { req?: SentRequest }).req;
  const path = (sent?.path ?? '').split('?')[0];
  const operation = operations.find((candidate) => candidate.method === sent?.method && candidate.pattern.test(path));
  if (!operation) return false;
  const responses = (installedFor.paths[operation.template] as Record<string, { responses?: Record<string, { content?: Record<string, { schema?: { type?: string } }> }> }>)[
    operation.method.toLowerCase()
  ]?.responses;
  const content = responses?.[String(response.status)]?.content;
  if (content === undefined || !Object.keys(content).some((type) => type !== 'application/json')) return false;
  expect(`${operation.method} ${operation.template} ${response.status} ${mediaType}: ${content[mediaType]?.schema?.type}`).toBe(
    `${operation.method} ${operation.template} ${response.status} ${mediaType}: string`,
  );
  return true;
}

/** A supertest `.expect()` callback. */
export function satisfiesContract(response: Response): void {
  if (!installedFor || !documentedPath(response)) return;
  // A route the document has, answered by the unknown-route handler, is a path outside it.
  if (response.status === 404 && response.body?.error?.code === 'NOT_FOUND' && /^No route /.test(response.body.error.message ?? '')) return;
  if (nonJsonBodyDocumented(response)) {
    if (response.status < 400) requestSatisfiesContract(response);
    return;
  }
  expect(response).toSatisfyApiSpec();
  rateLimitHeadersDeclared(response);
  if (response.status < 400) requestSatisfiesContract(response);
}
