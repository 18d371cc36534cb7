import { RETRY_AFTER_HEADER, SHOULD_RETRY } from './response-headers';
import type { OpenAPIObject } from '@nestjs/swagger';
import { ERROR_CATALOGUE, ErrorCode, errorTypeForStatus } from '../errors/error-code.enum';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '../validation/input-bounds';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

interface Parameter {
  name: string;
  in: string;
}

interface ResponseObject {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: unknown; examples?: Record<string, unknown> }>;
}

interface PostOperation {
  parameters?: Parameter[];
  responses?: Record<string, ResponseObject>;
}

const HEADER_PARAMETER = {
  name: IDEMPOTENCY_KEY_HEADER,
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: a repeat with the same key and the same parameters returns the first successful response ' +
    `(same status and body) with \`${IDEMPOTENT_REPLAYED_HEADER}: true\` instead of acting twice; the same key with other ` +
    'parameters is a 409 IDEMPOTENCY_KEY_CONFLICT. Scoped to the merchant and mode, kept at least 24 h. ' +
    'Use a fresh random value (a UUID) per operation.',
  // No example: Swagger UI would pre-fill it into every "Try it out", and the second operation
  // sent with the same key is a 409 (or a silent replay) for 24 hours.
  schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH },
};

const REPLAYED_HEADER = {
  description: 'Present (`true`) when this is the stored response of an earlier request with the same Idempotency-Key',
  schema: { type: 'string', enum: ['true'] },
};

function conflictExample() {
  const { status, description, renderedCode } = ERROR_CATALOGUE[ErrorCode.IDEMPOTENCY_KEY_CONFLICT];
  return {
    summary: description,
    value: { error: { type: errorTypeForStatus(status), message: description, code: renderedCode, request_id: 'req_5mJq2cV1xWb0aPz7' } },
  };
}

/**
 * Documents idempotency on every POST under /v1 but the license routes of apps, the routes IdempotencyInterceptor covers: the
 * optional Idempotency-Key header, the Idempotent-Replayed header on success responses, and
 * 409 IDEMPOTENCY_KEY_CONFLICT. Done on the built document so no route can be left out.
 */
export function documentIdempotency(document: OpenAPIObject): void {
  const code = ERROR_CATALOGUE[ErrorCode.IDEMPOTENCY_KEY_CONFLICT].renderedCode;
  for (const [path, pathItem] of Object.entries(document.paths)) {
    const operation = (pathItem as { post?: PostOperation }).post;
    // The customer's app's license routes carry no API key, so no idempotency (activate is idempotent per fingerprint).
    if (!path.startsWith('/v1/') || path.startsWith('/v1/licenses/') || !operation) continue;
    const parameters = operation.parameters ?? [];
    if (!parameters.some((parameter) => parameter.in === 'header' && parameter.name === IDEMPOTENCY_KEY_HEADER)) {
      operation.parameters = [...parameters, HEADER_PARAMETER];
    }
    const responses = (operation.responses ??= {});
    for (const [status, response] of Object.entries(responses)) {
      if (status.startsWith('2')) response.headers = { ...(response.headers ?? {}), [IDEMPOTENT_REPLAYED_HEADER]: REPLAYED_HEADER };
    }
    const conflict = (responses['409'] ??= {
      description: '',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponseDto' } } },
    });
    // Every 409 says whether sending it again may succeed (a key whose first request just finished).
    conflict.headers = { 'Retry-After': RETRY_AFTER_HEADER, 'X-Should-Retry': SHOULD_RETRY, ...(conflict.headers ?? {}) };
    const json = conflict.content?.['application/json'];
    if (json && !json.examples?.[code]) {
      json.examples = { ...(json.examples ?? {}), [code]: conflictExample() };
      const line = `\`${code}\`: ${ERROR_CATALOGUE[ErrorCode.IDEMPOTENCY_KEY_CONFLICT].description}`;
      conflict.description = conflict.description ? `${conflict.description}; ${line}` : line;
    }
  }
}
