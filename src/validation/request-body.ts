import type { IncomingMessage } from 'node:http';
import getRawBody from 'raw-body';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { announcesBody } from '../exchange/request-deadline';
import { refuseDeepJson } from './input-rules';

/*
 * What a request to the JSON API may carry (DESIGN §4): a JSON object, UTF-8, at most 1 MiB.
 * Read here, from the Node request, for both adapters and every method (a GET's body is held to
 * the same rules), after authentication: an unauthenticated body is never read.
 */

export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;
const CSV_MEDIA_TYPE = 'text/csv';
/** Routes that speak the JSON API; the local storage server (raw bodies) is outside them. */
const JSON_API_PREFIXES = ['/v1/', '/admin/', '/dashboard/api/', '/portal/api/'];
const JSON_MEDIA_TYPE = 'application/json';
const NOT_JSON = 'Bodies must be JSON: send Content-Type: application/json';

export function isJsonApiPath(path: string): boolean {
  return JSON_API_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/**
 * JSON bodies are UTF-8 (RFC 8259). Another declared charset is refused rather than decoded: an
 * odd-length UTF-16 body would decode to nothing and pass as an empty body.
 */
function refuseOtherCharsets(contentType: string): void {
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(contentType)?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new ApiError(ErrorCode.INVALID_PARAMETER, `Bodies must be UTF-8 JSON; charset=${charset} is not supported`);
  }
}

/** Strict: the body is an object or array, or it is not JSON at all. */
function parseJson(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (trimmed[0] !== '{' && trimmed[0] !== '[') throw new ApiError(ErrorCode.INVALID_JSON, 'The request body is not valid JSON');
  try {
    // JSON.parse keeps "__proto__" as an own key (never a prototype); input-rules decides about it.
    return JSON.parse(trimmed) as unknown;
  } catch {
    throw new ApiError(ErrorCode.INVALID_JSON, 'The request body is not valid JSON');
  }
}

/** A text/csv body, accepted only where the route's rules allow it (entitlement imports); parsed by its service. */
export class CsvBody {
  constructor(readonly csv: string) {}
}

/** How a route's body is read (route-body-rules.ts decides per route). */
export interface BodyReadRules {
  limitBytes: number;
  limitText: string;
  acceptsCsv: boolean;
}

const JSON_ONLY: BodyReadRules = { limitBytes: JSON_BODY_LIMIT_BYTES, limitText: '1 MiB', acceptsCsv: false };

/** raw-body's failures (http-errors with a `type`) in the catalogue. */
function bodyReadError(error: unknown, rules: BodyReadRules): ApiError {
  switch ((error as { type?: unknown } | null)?.type) {
    case 'entity.too.large':
      return new ApiError(ErrorCode.PAYLOAD_TOO_LARGE, `The request body is larger than ${rules.limitText}`);
    case 'request.size.invalid':
      return new ApiError(ErrorCode.INVALID_PARAMETER, 'The Content-Length header does not match the body');
    case 'request.aborted':
      return new ApiError(ErrorCode.INVALID_PARAMETER, 'The request body was not completely received');
    default:
      return error instanceof ApiError ? error : new ApiError(ErrorCode.INVALID_PARAMETER, 'The request body could not be read');
  }
}

/** The parsed body of a JSON API request, or undefined when it has none. */
export async function readJsonApiBody(request: IncomingMessage, rules: BodyReadRules = JSON_ONLY): Promise<unknown> {
  if (!announcesBody(request)) return undefined;
  const contentType = request.headers['content-type'] ?? '';
  const mediaType = contentType.split(';')[0].trim().toLowerCase();
  const csv = rules.acceptsCsv && mediaType === CSV_MEDIA_TYPE;
  if (mediaType !== JSON_MEDIA_TYPE && !csv) {
    throw new ApiError(ErrorCode.INVALID_PARAMETER, rules.acceptsCsv ? 'Bodies must be JSON or CSV: send Content-Type: application/json or text/csv' : NOT_JSON);
  }
  refuseOtherCharsets(contentType);
  const encoding = request.headers['content-encoding'];
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
    throw new ApiError(ErrorCode.INVALID_PARAMETER, `Bodies must not be compressed; Content-Encoding ${encoding} is not supported`);
  }
  let text: string;
  try {
    const length = request.headers['content-length'];
    text = await getRawBody(request, { length: length === undefined ? undefined : Number(length), limit: rules.limitBytes, encoding: 'utf-8' });
  } catch (error) {
    throw bodyReadError(error, rules);
  }
  if (csv) return new CsvBody(text);
  const body = parseJson(text);
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
    throw new ApiError(ErrorCode.INVALID_PARAMETER, 'The body must be a JSON object');
  }
  refuseDeepJson(body);
  return body;
}
