import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ADMIN_TOKEN_SECURITY, API_KEY_SECURITY } from '../auth/route-access.decorators';
import { documentIdempotency } from '../idempotency/idempotency-openapi';

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { description: 'Requests allowed a minute for this key (read or write budget)', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Seconds until the window resets', schema: { type: 'integer' } },
  'X-Request-Id': { description: 'Request identifier, as meta.request_id', schema: { type: 'string' } },
};

const UNEXPECTED_ERROR_RESPONSE = {
  description: 'Any other error of the catalogue (e.g. 400 INVALID_JSON, 413 PAYLOAD_TOO_LARGE, 500 INTERNAL_ERROR), in the error shape',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponseDto' } } },
};

/** Errors any authenticated route can return whatever it declares; listed by status because contract checkers ignore `default`. */
const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponseDto' } } },
});
const INTERNAL_ERROR_RESPONSE = errorResponse('`INTERNAL_ERROR`: unexpected error, logged with the request id; nothing internal in the body');
const BODY_ERROR_RESPONSES: Record<string, ReturnType<typeof errorResponse>> = {
  '400': errorResponse('`INVALID_JSON`: the body is not valid JSON; `INVALID_PARAMETER`: not a JSON object, or a field is invalid or unknown'),
  '413': errorResponse('`PAYLOAD_TOO_LARGE`: the body is larger than 1 MiB'),
};

type Operation = {
  description?: string;
  security?: Array<Record<string, string[]>>;
  'x-required-scopes'?: string[];
  requestBody?: unknown;
  responses?: Record<string, { description?: string; content?: unknown; headers?: Record<string, unknown> }>;
};

/** Puts each route's scope where a reader sees it and documents the rate-limit headers. */
function decorateOperations(document: OpenAPIObject): void {
  for (const pathItem of Object.values(document.paths)) {
    for (const operation of Object.values(pathItem) as Operation[]) {
      const scopes = operation['x-required-scopes'];
      // Public routes (health, storage) say so explicitly: no security requirement.
      if (!operation.security) operation.security = [];
      // Every API route can fail in the catalogue's shape beyond the errors it lists.
      if (operation.responses && !operation.responses.default && (scopes || operation.security.length > 0)) {
        operation.responses.default = UNEXPECTED_ERROR_RESPONSE;
      }
      if (operation.responses && (scopes || operation.security.length > 0)) {
        operation.responses['500'] ??= INTERNAL_ERROR_RESPONSE;
        if (operation.requestBody) {
          for (const [status, response] of Object.entries(BODY_ERROR_RESPONSES)) operation.responses[status] ??= response;
        }
      }
      if (!scopes) continue;
      const scopeLine = `**Scope:** ${scopes.map((scope) => `\`${scope}\``).join(', ')}`;
      operation.description = operation.description ? `${scopeLine}\n\n${operation.description}` : scopeLine;
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (status.startsWith('2')) response.headers = { ...RATE_LIMIT_HEADERS, ...(response.headers ?? {}) };
      }
    }
  }
}

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Entitlement and Digital Delivery API')
    .setDescription(
      [
        'Records which customers may use which digital products, answers access checks fast, and delivers files through short-lived signed URLs, metered against the plan.',
        '',
        'Authenticate with `Authorization: Bearer eh_test_…` (or `eh_live_…`). Each route names its scope. Successful responses use the envelope `{data, meta, pagination?}`; errors `{error: {type, message, code, request_id, param?}}`.',
      ].join('\n'),
    )
    .setVersion('1.0.0')
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    .addServer('/', 'This server')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'API key: eh_live_… or eh_test_…' }, API_KEY_SECURITY)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN of the deployment' }, ADMIN_TOKEN_SECURITY)
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controllerKey, methodKey) => `${controllerKey.replace(/Controller$/, '')}_${methodKey}`,
  });
  decorateOperations(document);
  documentIdempotency(document);
  return document;
}

export function setupSwagger(app: INestApplication): OpenAPIObject {
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs/openapi.json',
    yamlDocumentUrl: 'docs/openapi.yaml',
    swaggerOptions: { persistAuthorization: true },
    customSiteTitle: 'Entitlement and Digital Delivery API',
  });
  return document;
}
