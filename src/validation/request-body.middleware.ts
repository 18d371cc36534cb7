import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';

/*
 * Rules for what a request may carry, applied before routing (DESIGN §4): JSON objects only,
 * UTF-8, at most 1 MiB, and nothing PostgreSQL cannot store.
 */

export const JSON_BODY_LIMIT = '1mb';
/** Routes that speak the JSON API; the local storage server (raw bodies) is outside them. */
const JSON_API_PREFIXES = ['/v1/', '/admin/'];

function isJsonApiPath(path: string): boolean {
  return JSON_API_PREFIXES.some((prefix) => path.startsWith(prefix));
}

function hasBody(request: Request): boolean {
  return Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
}

/** Bodies are JSON objects only: another content type or a top-level array/scalar is a 400. */
export function requireJsonObjectBody(request: Request, _response: Response, next: NextFunction): void {
  if (!isJsonApiPath(request.path) || !hasBody(request)) return next();
  if (!request.is('application/json')) {
    return next(new ApiError(ErrorCode.INVALID_PARAMETER, 'Bodies must be JSON: send Content-Type: application/json'));
  }
  if (typeof request.body !== 'object' || request.body === null || Array.isArray(request.body)) {
    return next(new ApiError(ErrorCode.INVALID_PARAMETER, 'The body must be a JSON object'));
  }
  next();
}

/**
 * JSON bodies are UTF-8 (RFC 8259). Another declared charset is refused rather than decoded: the
 * parser would decode UTF-16, and an odd-length UTF-16 body decodes to nothing, which was then
 * accepted as an empty body.
 */
export function requireUtf8Body(request: Request, _response: Response, next: NextFunction): void {
  if (!isJsonApiPath(request.path) || !hasBody(request)) return next();
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    return next(new ApiError(ErrorCode.INVALID_PARAMETER, `Bodies must be UTF-8 JSON; charset=${charset} is not supported`));
  }
  next();
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
 * PostgreSQL text cannot hold U+0000, so a NUL reaching a query failed there as a 500. It is
 * refused up front on every API route: in the body or the query a 400 naming the field; in the
 * path a 404, as no record can have such an id. Lone surrogates (which jsonb refuses) and bodies
 * nested deeper than MAX_JSON_DEPTH are refused too.
 */
export function refuseUnstorableInput(request: Request, _response: Response, next: NextFunction): void {
  if (!isJsonApiPath(request.path)) return next();
  if (request.path.split('/').some(decodesToNul)) {
    return next(new ApiError(ErrorCode.NOT_FOUND, 'No such resource: the path contains a NUL character'));
  }
  const problem = bodyProblem(request.query) ?? bodyProblem(request.body);
  if (problem?.kind === 'nul') {
    return next(new ApiError(ErrorCode.INVALID_PARAMETER, `Invalid '${problem.path}': text may not contain NUL (\\u0000) characters`, problem.path));
  }
  if (problem?.kind === 'lone-surrogate') {
    // JSON may escape half a surrogate pair ("\\ud800"); jsonb columns refuse it (a 500).
    return next(new ApiError(ErrorCode.INVALID_PARAMETER, `Invalid '${problem.path}': text must be valid Unicode (a lone surrogate was sent)`, problem.path));
  }
  if (problem?.kind === 'too-deep') {
    return next(new ApiError(ErrorCode.INVALID_PARAMETER, `Invalid '${problem.path}': JSON may nest at most ${MAX_JSON_DEPTH} levels deep`, problem.path));
  }
  next();
}
