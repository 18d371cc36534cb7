import type { Response } from 'supertest';
import { ERROR_CATALOGUE, errorTypeForStatus } from '../../src/errors/error-code.enum';

/** Rendered code → the statuses the catalogue gives it (one code may have two). */
const STATUSES_BY_RENDERED_CODE = new Map<string, Set<number>>();
for (const entry of Object.values(ERROR_CATALOGUE)) {
  const statuses = STATUSES_BY_RENDERED_CODE.get(entry.renderedCode) ?? new Set<number>();
  statuses.add(entry.status);
  STATUSES_BY_RENDERED_CODE.set(entry.renderedCode, statuses);
}

export const RENDERED_ERROR_CODES = [...STATUSES_BY_RENDERED_CODE.keys()].sort();

/**
 * What is wrong with an error response, or null when it is a proper catalogue error:
 * `{error: {type, message, code, request_id, param?}}`, a code of the catalogue whose status is
 * the response's, the type of that status, and the request id of the X-Request-Id header.
 */
export function errorEnvelopeProblem(response: Response): string | null {
  const body: unknown = response.body;
  if (typeof body !== 'object' || body === null || !('error' in body)) return 'the body is not {error: …}';
  const error = (body as { error: unknown }).error;
  if (typeof error !== 'object' || error === null) return 'error is not an object';
  const { type, message, code, request_id: requestId, param, ...rest } = error as Record<string, unknown>;
  if (Object.keys(rest).length > 0) return `error has unexpected fields ${Object.keys(rest).join(', ')}`;
  if (Object.keys(body).length !== 1) return `the body has fields beside error: ${Object.keys(body).join(', ')}`;
  if (typeof message !== 'string' || message.length === 0) return 'error.message is not a non-empty string';
  if (typeof code !== 'string') return 'error.code is not a string';
  const statuses = STATUSES_BY_RENDERED_CODE.get(code);
  if (!statuses) return `error.code ${code} is not in the catalogue`;
  if (!statuses.has(response.status)) return `error.code ${code} has status ${[...statuses].join('/')} in the catalogue, not ${response.status}`;
  if (type !== errorTypeForStatus(response.status)) return `error.type ${String(type)} is not ${errorTypeForStatus(response.status)}`;
  if (typeof requestId !== 'string' || requestId.length === 0) return 'error.request_id is missing';
  if (requestId !== response.headers['x-request-id']) return 'error.request_id differs from X-Request-Id';
  if (param !== undefined && typeof param !== 'string') return 'error.param is not a string';
  return null;
}

/** A short, printable account of a response for failure messages. */
export function describeResponse(response: Response): string {
  const text = typeof response.text === 'string' ? response.text : JSON.stringify(response.body);
  return `${response.status} ${truncate(text ?? '', 600)}`;
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} chars)`;
}
