import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { pathOf } from '../http/request-path';

/*
 * Rules for what a request may carry, applied before routing (DESIGN §4): JSON objects only,
 * UTF-8, at most 1 MiB, and nothing PostgreSQL cannot store.
 */

export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;
/** Routes that speak the JSON API; the local storage server (raw bodies) is outside them. */
const JSON_API_PREFIXES = ['/v1/', '/admin/'];
const JSON_MEDIA_TYPE = 'application/json';

function isJsonApiPath(path: string): boolean {
  return JSON_API_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/**
 * JSON bodies are UTF-8 (RFC 8259). Another declared charset is refused rather than decoded: an
 * odd-length UTF-16 body would decode to nothing and pass as an empty body.
 */
function declaredCharset(contentType: string | undefined): string | undefined {
  return /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
}

function refuseOtherCharsets(contentType: string | undefined): void {
  const charset = declaredCharset(contentType);
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new ApiError(ErrorCode.INVALID_PARAMETER, `Bodies must be UTF-8 JSON; charset=${charset} is not supported`);
  }
}

const NOT_JSON = 'Bodies must be JSON: send Content-Type: application/json';

/** Strict like Express's parser was: the body is an object or array, or it is not JSON at all. */
function parseJsonBody(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (trimmed[0] !== '{' && trimmed[0] !== '[') throw new ApiError(ErrorCode.INVALID_JSON, 'The request body is not valid JSON');
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    throw new ApiError(ErrorCode.INVALID_JSON, 'The request body is not valid JSON');
  }
}

/**
 * The body parsers: JSON (application/json, UTF-8 only) on API routes;
 * any other content type is refused there, and passed through unread to the local storage
 * server, which streams uploads from the raw request.
 */
export function registerBodyParsers(instance: FastifyInstance): void {
  instance.removeAllContentTypeParsers();
  instance.addContentTypeParser(JSON_MEDIA_TYPE, { parseAs: 'string', bodyLimit: JSON_BODY_LIMIT_BYTES }, (request, body, done) => {
    try {
      refuseOtherCharsets(request.headers['content-type']);
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  instance.addContentTypeParser('*', (request, _payload, done) => {
    if (isJsonApiPath(pathOf(request.url))) return done(new ApiError(ErrorCode.INVALID_PARAMETER, NOT_JSON), undefined);
    done(null, undefined);
  });
}

/**
 * Fastify leaves the body of a GET or HEAD unread; on API routes it is held to the same rules as
 * any other body (a JSON object, UTF-8, within the limit), as it was before the move from Express.
 */
async function parseBodylessMethodBody(request: FastifyRequest): Promise<void> {
  const { headers } = request;
  if (!(Number(headers['content-length'] ?? 0) > 0 || headers['transfer-encoding'] !== undefined)) return;
  const contentType = headers['content-type'];
  if ((contentType ?? '').split(';')[0].trim().toLowerCase() !== JSON_MEDIA_TYPE) throw new ApiError(ErrorCode.INVALID_PARAMETER, NOT_JSON);
  refuseOtherCharsets(contentType);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request.raw as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > JSON_BODY_LIMIT_BYTES) throw new ApiError(ErrorCode.PAYLOAD_TOO_LARGE, 'The request body is larger than 1 MiB');
    chunks.push(chunk);
  }
  request.body = parseJsonBody(Buffer.concat(chunks).toString('utf8'));
}

/** Deeper JSON is refused: validation and serialisation recurse, and would overflow the stack (a 500). */
const MAX_JSON_DEPTH = 64;

type BodyProblem = { kind: 'nul' | 'lone-surrogate' | 'too-deep'; path: string };

/** With the u flag a surrogate pair is one code point, so this matches only a lone surrogate. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

function textProblem(text: string): BodyProblem['kind'] | null {
  if (text.includes('\u0000')) return 'nul';
  if (LONE_SURROGATE.test(text)) return 'lone-surrogate';
  return null;
}

/**
 * The first string or key holding U+0000 or a lone surrogate, or the first value nested deeper
 * than MAX_JSON_DEPTH, with its path (e.g. `metadata.note`). Iterative, so the check itself
 * cannot overflow the stack.
 */
function bodyProblem(root: unknown): BodyProblem | null {
  const pending: Array<[unknown, string, number]> = [[root, '', 0]];
  while (pending.length > 0) {
    const [value, path, depth] = pending.pop() as [unknown, string, number];
    if (typeof value === 'string') {
      const kind = textProblem(value);
      if (kind) return { kind, path };
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_JSON_DEPTH) return { kind: 'too-deep', path };
    for (const [key, field] of Object.entries(value)) {
      const fieldPath = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
      const keyKind = textProblem(key);
      if (keyKind) return { kind: keyKind, path: fieldPath };
      pending.push([field, fieldPath, depth + 1]);
    }
  }
  return null;
}

function decodesToNul(segment: string): boolean {
  try {
    return decodeURIComponent(segment).includes('\u0000');
  } catch {
    return false;
  }
}

/**
 * After parsing: bodies are JSON objects, and nothing reaches a query that PostgreSQL cannot
 * store. U+0000 (which text columns refuse, a 500 before) is a 400 naming the field in the body
 * or the query, and a 404 in the path, as no record can have such an id. Lone surrogates (which
 * jsonb refuses) and bodies nested deeper than MAX_JSON_DEPTH are refused too.
 */
export async function refuseUnstorableInput(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const path = pathOf(request.url);
  if (!isJsonApiPath(path)) return;
  if (request.method === 'GET' || request.method === 'HEAD') await parseBodylessMethodBody(request);
  const body: unknown = request.body;
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
    throw new ApiError(ErrorCode.INVALID_PARAMETER, 'The body must be a JSON object');
  }
  if (path.split('/').some(decodesToNul)) {
    throw new ApiError(ErrorCode.NOT_FOUND, 'No such resource: the path contains a NUL character');
  }
  const problem = bodyProblem(request.query) ?? bodyProblem(body);
  if (problem?.kind === 'nul') {
    throw new ApiError(ErrorCode.INVALID_PARAMETER, `Invalid '${problem.path}': text may not contain NUL (\\u0000) characters`, problem.path);
  }
  if (problem?.kind === 'lone-surrogate') {
    // JSON may escape half a surrogate pair ("\\ud800"); jsonb columns refuse it (a 500).
    throw new ApiError(ErrorCode.INVALID_PARAMETER, `Invalid '${problem.path}': text must be valid Unicode (a lone surrogate was sent)`, problem.path);
  }
  if (problem?.kind === 'too-deep') {
    throw new ApiError(ErrorCode.INVALID_PARAMETER, `Invalid '${problem.path}': JSON may nest at most ${MAX_JSON_DEPTH} levels deep`, problem.path);
  }
}
