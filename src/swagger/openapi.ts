import { INestApplication, Type } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { MODE_HEADER } from '../exchange/mode-header';
import { ADMIN_TOKEN_SECURITY, API_KEY_SECURITY, DASHBOARD_SESSION_SECURITY, DASHBOARD_TAG, LICENSE_KEY_CREDENTIAL } from './security-schemes';
import { ERROR_CATALOGUE, ErrorCode, errorTypeForStatus } from '../errors/error-code.enum';
import { documentIdempotency } from './idempotency-openapi';
import { makeDocumentPrecise } from './document-precision';
import { API_TAGS } from './api-tags';

/** The document's version is the package's: one number to bump, and clients see which they built from. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const PACKAGE_VERSION = (require('../../package.json') as { version: string }).version;
import { operationIdFor } from './operation-ids';
import { RATE_LIMIT_HEADERS, RETRY_AFTER_HEADER, SHOULD_RETRY } from './response-headers';
import { SWAGGER_UI_FILL_PLUGIN_SCRIPT } from './swagger-ui-fill-plugin';
import { BodyRules, bodyRulesFor } from '../validation/route-body-rules';

/**
 * Rate-limit headers as a failed request carries them (not the request id, which every response
 * has). Every answer given after the AccessGuard counted the request has them, whatever its
 * status (a 403 ENTITLEMENT_NOT_ACTIVE, a 500): they are declared, optional, on every response of
 * a keyed route, and their description says when they are absent.
 */
const RATE_LIMIT_ERROR_HEADERS = Object.fromEntries(Object.entries(RATE_LIMIT_HEADERS).filter(([name]) => name.startsWith('X-RateLimit')));

interface MediaObject {
  schema?: unknown;
  example?: unknown;
  examples?: Record<string, { summary?: string; value: unknown }>;
}
interface ResponseObject {
  description?: string;
  content?: Record<string, MediaObject>;
  headers?: Record<string, unknown>;
}

type Operation = {
  summary?: string;
  description?: string;
  security?: Array<Record<string, string[]>>;
  'x-required-scopes'?: string[];
  /** `license-key`: the customer's app's license routes, authenticated by the key in the body and rate-limited per key (DESIGN §18). */
  'x-credential'?: string;
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: unknown;
  responses?: Record<string, ResponseObject>;
};

/**
 * A text/csv request body is text with a header row, whatever JSON schema the route's other media
 * type has, within the route's body limit (route-body-rules: what the server reads before a 413).
 * maxLength counts characters, each at least one UTF-8 byte, so the byte limit bounds them too.
 */
const csvBody = (rules: BodyRules) => ({
  schema: {
    type: 'string',
    description: `CSV (RFC 4180, UTF-8) with a header row naming the columns; one data row per line; an empty cell is an absent value. At most ${rules.limitText} (${rules.limitBytes.toLocaleString('en-US')} bytes): a larger body is 413 PAYLOAD_TOO_LARGE`,
    maxLength: rules.limitBytes,
    example: 'store_customer_id,store_product_id,expires_at,metadata\nstore_cust_1001,sku_ebook_42,2030-01-15T10:30:00Z,"{""migrated_from"":""legacy""}"\n',
  },
});
function errorExample(code: ErrorCode, message = ERROR_CATALOGUE[code].description) {
  const { status, renderedCode, description } = ERROR_CATALOGUE[code];
  return {
    summary: description,
    value: { error: { type: errorTypeForStatus(status), message, code: renderedCode, request_id: 'req_5mJq2cV1xWb0aPz7' } },
  };
}

/** An error response showing its own examples, one per catalogue code. */
function errorResponse(description: string, codes: ErrorCode[]): ResponseObject {
  return {
    description,
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/ErrorResponseDto' },
        examples: Object.fromEntries(codes.map((code) => [ERROR_CATALOGUE[code].renderedCode, errorExample(code)])),
      },
    },
  };
}

const UNEXPECTED_ERROR_RESPONSE = () =>
  errorResponse('Any other error of the catalogue, in the error shape (the statuses above list what this route returns)', [ErrorCode.INTERNAL_ERROR]);
const INTERNAL_ERROR_RESPONSE = () => errorResponse('`INTERNAL_ERROR`: unexpected error, logged with the request id; nothing internal in the body', [ErrorCode.INTERNAL_ERROR]);
const SERVICE_UNAVAILABLE_RESPONSE = (): ResponseObject => ({
  ...errorResponse(
    '`SERVICE_UNAVAILABLE`: the database is unreachable or too busy (or this merchant has too many writes waiting); retry after `Retry-After` seconds',
    [ErrorCode.SERVICE_UNAVAILABLE],
  ),
  headers: { 'Retry-After': RETRY_AFTER_HEADER, 'X-Should-Retry': SHOULD_RETRY },
});
const PAYLOAD_TOO_LARGE_RESPONSE = (rules: BodyRules) => errorResponse(`\`PAYLOAD_TOO_LARGE\`: the body is larger than ${rules.limitText}`, [ErrorCode.PAYLOAD_TOO_LARGE]);

const ADMIN_TOKEN_LINE =
  "**Needs `ADMIN_TOKEN`** (the deployment's operator token, not an API key): in Swagger UI, Authorize → `admin_token` → paste the value of `ADMIN_TOKEN`. Without it, or on a deployment that sets none, the answer is 401 `INVALID_API_KEY`.";

/** Adds catalogue codes to an operation's 400 (creating it), each with its example, keeping what the route declared. */
function listBadRequests(operation: Operation, codes: ErrorCode[]): void {
  const responses = (operation.responses ??= {});
  const response = (responses['400'] ??= errorResponse('', []));
  const json = (response.content ??= {})['application/json'] ?? (response.content['application/json'] = { schema: { $ref: '#/components/schemas/ErrorResponseDto' } });
  const examples = (json.examples ??= {});
  for (const code of codes) {
    const rendered = ERROR_CATALOGUE[code].renderedCode;
    if (examples[rendered]) continue;
    examples[rendered] = errorExample(code);
    const line = `\`${rendered}\`: ${ERROR_CATALOGUE[code].description}`;
    response.description = response.description ? `${response.description}; ${line}` : line;
  }
}

/** Puts each route's scope where a reader sees it and documents the rate-limit headers. */
function decorateOperations(document: OpenAPIObject): void {
  for (const [path, pathItem] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(pathItem) as Array<[string, Operation]>) {
      const body = operation.requestBody as { content?: Record<string, unknown> } | undefined;
      const bodyRules = bodyRulesFor(method.toUpperCase(), path);
      if (body?.content?.['text/csv']) body.content['text/csv'] = csvBody(bodyRules);
      const scopes = operation['x-required-scopes'];
      // Public routes (health, storage) say so explicitly: no security requirement.
      if (!operation.security) operation.security = [];
      // An operation without its own description repeats its summary, so every one has one.
      operation.description ??= operation.summary;
      const byLicenseKey = operation['x-credential'] === LICENSE_KEY_CREDENTIAL;
      const authenticated = Boolean(scopes) || operation.security.length > 0 || byLicenseKey;
      if (operation.responses && authenticated) {
        // Every API route can fail in the catalogue's shape beyond the errors it lists.
        operation.responses.default ??= UNEXPECTED_ERROR_RESPONSE();
        operation.responses['500'] ??= INTERNAL_ERROR_RESPONSE();
        operation.responses['503'] ??= SERVICE_UNAVAILABLE_RESPONSE();
        // Query strings are validated on every route (an unknown parameter is refused), bodies
        // are parsed as JSON first: the 400s every such route can return, whatever it declares.
        const hasQuery = (operation.parameters ?? []).some((parameter) => parameter.in === 'query');
        if (hasQuery || operation.requestBody) listBadRequests(operation, [ErrorCode.INVALID_PARAMETER]);
        if (operation.requestBody) {
          listBadRequests(operation, [ErrorCode.INVALID_JSON]);
          // The limit the server reads the body with (an import's is larger).
          operation.responses['413'] = PAYLOAD_TOO_LARGE_RESPONSE(bodyRules);
        }
      }
      // The operator API: say which credential, and where Swagger UI takes it, before anything else.
      if (operation.security.some((requirement) => ADMIN_TOKEN_SECURITY in requirement)) {
        operation.description = `${ADMIN_TOKEN_LINE}\n\n${operation.description ?? ''}`.trimEnd();
      }
      // A session is rate-limited like a key: its answers carry the same headers.
      const bySession = operation.security.some((requirement) => DASHBOARD_SESSION_SECURITY in requirement);
      if (!scopes && !bySession && !byLicenseKey) continue;
      if (scopes) {
        const scopeLine = `**Scope:** ${scopes.map((scope) => `\`${scope}\``).join(', ')}`;
        operation.description = operation.description ? `${scopeLine}\n\n${operation.description}` : scopeLine;
      }
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        response.headers = { ...(status.startsWith('2') ? RATE_LIMIT_HEADERS : RATE_LIMIT_ERROR_HEADERS), ...(response.headers ?? {}) };
      }
    }
  }
}

/** Where @ApiTags keeps a controller's tags (@nestjs/swagger's DECORATORS.API_TAGS, which its package does not export). */
const API_TAGS_METADATA = 'swagger/apiUseTags';

/** The app's modules, split by whether their controllers are the dashboard's own routes (tagged `dashboard`; one document each). */
function modulesByDocument(app: INestApplication): { publicModules: Type[]; dashboardModules: Type[] } {
  const publicModules: Type[] = [];
  const dashboardModules: Type[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    const controllers = [...module.controllers.values()].map((wrapper) => wrapper.metatype).filter((metatype): metatype is Type => typeof metatype === 'function');
    const dashboard = controllers.length > 0 && controllers.every((controller) => ((Reflect.getMetadata(API_TAGS_METADATA, controller) as string[] | undefined) ?? []).includes(DASHBOARD_TAG));
    (dashboard ? dashboardModules : publicModules).push(module.metatype as Type);
  }
  return { publicModules, dashboardModules };
}

/** What every document gets once built: errors and headers each route can return, idempotency, precision. */
function finishDocument(document: OpenAPIObject): OpenAPIObject {
  // Idempotency first: its 409 then gets the rate-limit headers like every other 4xx it sends.
  documentIdempotency(document);
  decorateOperations(document);
  makeDocumentPrecise(document);
  // The document describes whichever deployment serves it; not an internal-only API.
  for (const server of document.servers ?? []) Object.assign(server, { 'x-internal': false });
  return document;
}

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Entitlement and Digital Delivery API')
    .setDescription(
      [
        'Records which customers may use which digital products, answers access checks fast, and delivers files through short-lived signed URLs, metered against the plan.',
        '',
        'Authenticate with `Authorization: Bearer eh_test_…` (or `eh_live_…`). Each route names its scope. Successful responses use the envelope `{data, meta, pagination?}`; errors `{error: {type, message, code, request_id, param?}}`.',
        '',
        'Timestamps are RFC 3339 (`format: date-time`); responses give UTC with milliseconds, requests may use any offset (other ISO 8601 forms with an offset are accepted too).',
        '',
        "Try it out: on the embedded first start's demo merchant every operation runs from this page, in the order the tags are listed. A path parameter that takes one of our ids says which route's answer gives one, and this page fills it with the id of its kind in the last answer it showed (a license key an answer showed replaces the examples' made-up key); the admin operations take the deployment's `ADMIN_TOKEN` through Authorize.",
        '',
        `The merchant dashboard calls these routes with its session cookie instead of a key; such a request names its mode in the \`${MODE_HEADER}\` header (\`test\` or \`live\`; 400 \`MISSING_REQUIRED_FIELD\` without it). A key's mode is the key's, and the header is ignored.`,
      ].join('\n'),
    )
    .setVersion(PACKAGE_VERSION)
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    .addServer('/', 'This server: the local, test or production deployment serving this document')
    // Keys and the admin token are opaque random strings, not JWTs (Nest's default bearerFormat).
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'opaque', description: 'API key: eh_live_… or eh_test_…' }, API_KEY_SECURITY)
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'opaque', description: 'The deployment\'s ADMIN_TOKEN (environment variable; the admin operations need it, nothing else takes it)' },
      ADMIN_TOKEN_SECURITY,
    );
  // Declared tags, in the order Swagger UI shows them: the product's core first, operations last.
  for (const tag of API_TAGS) config.addTag(tag.name, tag.description);
  const built = config.build();
  const document = SwaggerModule.createDocument(app, built, {
    operationIdFactory: operationIdFor,
    include: modulesByDocument(app).publicModules,
  });
  return finishDocument(document);
}

/**
 * The dashboard app's own routes (/dashboard/api/), in a document of their own (openapi.dashboard.json,
 * Swagger UI at /docs/dashboard): they serve this service's web app, not merchants' code.
 * State-changing routes of a session need its CSRF token, documented here for all of them at once.
 */
export function buildDashboardOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Entitlement and Digital Delivery API: dashboard routes')
    .setDescription(
      [
        "The merchant dashboard's own routes: sign-in, the session, password setup, the Overview numbers, API keys and the team. The dashboard does everything else through the public `/v1` API (see /docs) with its session cookie, naming the page's mode in `" +
          MODE_HEADER +
          '`.',
        '',
        'A state-changing request of a session needs `X-CSRF-Token` (the session\'s `csrf_token`).',
      ].join('\n'),
    )
    .setVersion(PACKAGE_VERSION)
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    .addServer('/', 'This server')
    .addCookieAuth('eh_session', { type: 'apiKey', in: 'cookie', description: 'The session cookie set by sign-in (`__Host-eh_session` under https)' }, DASHBOARD_SESSION_SECURITY)
    .addTag(DASHBOARD_TAG, "The merchant dashboard's own routes");
  const document = SwaggerModule.createDocument(app, config.build(), {
    operationIdFactory: operationIdFor,
    include: modulesByDocument(app).dashboardModules,
  });
  documentCsrfHeader(document);
  const finished = finishDocument(document);
  documentRateLimitsOfSignedInCallers(finished);
  return finished;
}

/**
 * Sign-in and setup need no session, but a browser that has one sends its cookie, and a request a
 * session authenticates is rate-limited (and answered with the headers) like any other.
 */
function documentRateLimitsOfSignedInCallers(document: OpenAPIObject): void {
  for (const pathItem of Object.values(document.paths)) {
    for (const operation of Object.values(pathItem) as Operation[]) {
      if ((operation.security ?? []).length > 0) continue;
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        response.headers = { ...(status.startsWith('2') ? RATE_LIMIT_HEADERS : RATE_LIMIT_ERROR_HEADERS), ...(response.headers ?? {}) };
      }
    }
  }
}

/** The CSRF header and its 403 on every state-changing operation that needs the session. */
function documentCsrfHeader(document: OpenAPIObject): void {
  for (const pathItem of Object.values(document.paths)) {
    for (const [method, operation] of Object.entries(pathItem) as Array<[string, Operation]>) {
      if (method === 'get' || !(operation.security ?? []).some((requirement) => DASHBOARD_SESSION_SECURITY in requirement)) continue;
      (operation.parameters ??= []).push({
        in: 'header',
        name: 'X-CSRF-Token',
        required: true,
        description: "The session's csrf_token",
        schema: { type: 'string' },
        example: 'Zk3pQ9xT2vB7nL4mR8sW1yC6dF0gH5jK3aE9uI2oP7q',
      } as { in: string; name: string });
      (operation.responses ??= {})['403'] = errorResponse(`\`${ERROR_CATALOGUE[ErrorCode.CSRF_TOKEN_INVALID].renderedCode}\`: ${ERROR_CATALOGUE[ErrorCode.CSRF_TOKEN_INVALID].description}`, [ErrorCode.CSRF_TOKEN_INVALID]);
    }
  }
}

/** The plugin that fills ids from the answers seen on the page (swagger-ui-fill-plugin.ts). */
export const SWAGGER_UI_FILL_PLUGIN_PATH = '/docs/swagger-ui-fill.js';

/** What Express's and Fastify's replies have alike, as the adapter hands them over. */
interface ScriptResponse {
  type: (contentType: string) => unknown;
  send: (body: string) => unknown;
}

/** Swagger UI: the public API at /docs; the dashboard's own routes at /docs/dashboard while the dashboard is served. */
export function setupSwagger(app: INestApplication, options: { dashboard: boolean }): OpenAPIObject {
  const document = buildOpenApiDocument(app);
  // A script of its own (the page's Content-Security-Policy allows 'self', not inline scripts).
  app.getHttpAdapter().get(SWAGGER_UI_FILL_PLUGIN_PATH, (_request: unknown, response: ScriptResponse) => {
    response.type('application/javascript');
    response.send(SWAGGER_UI_FILL_PLUGIN_SCRIPT);
  });
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs/openapi.json',
    yamlDocumentUrl: 'docs/openapi.yaml',
    swaggerOptions: { persistAuthorization: true },
    customJs: SWAGGER_UI_FILL_PLUGIN_PATH,
    customSiteTitle: 'Entitlement and Digital Delivery API',
  });
  if (options.dashboard) {
    SwaggerModule.setup('docs/dashboard', app, buildDashboardOpenApiDocument(app), {
      jsonDocumentUrl: 'docs/dashboard/openapi.json',
      yamlDocumentUrl: 'docs/dashboard/openapi.yaml',
      customSiteTitle: 'Entitlement and Digital Delivery API: dashboard routes',
    });
  }
  return document;
}
