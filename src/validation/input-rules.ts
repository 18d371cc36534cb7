import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';

/*
 * Rules for values that would fail deep in the stack (a 500) rather than in validation: text
 * PostgreSQL cannot store, JSON nested deep enough to overflow a recursive walk, and keys that
 * reach objects' prototypes.
 */

/** Deeper JSON is refused: validation and serialisation recurse, and would overflow the stack. */
export const MAX_JSON_DEPTH = 64;

/** With the u flag a surrogate pair is one code point, so this matches only a lone surrogate. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** Keys that name an object's prototype machinery; only `metadata` (free-form data) may hold them. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const FREE_FORM_FIELD = 'metadata';

function childPath(parent: string, key: string, inArray: boolean): string {
  if (inArray) return `${parent}[${key}]`;
  return parent ? `${parent}.${key}` : key;
}

/** Every value of a JSON tree with its path and depth, iteratively (a walk that can't overflow). */
function* walk(root: unknown): Generator<{ value: unknown; path: string; depth: number; key: string | null; freeForm: boolean }> {
  const pending: Array<{ value: unknown; path: string; depth: number; key: string | null; freeForm: boolean }> = [
    { value: root, path: '', depth: 0, key: null, freeForm: false },
  ];
  while (pending.length > 0) {
    const entry = pending.pop() as (typeof pending)[number];
    yield entry;
    const { value, path, depth, freeForm } = entry;
    if (typeof value !== 'object' || value === null) continue;
    const inArray = Array.isArray(value);
    // Pushed last to first, so they are visited first to last: a refusal names the first bad field or row.
    for (const [key, field] of Object.entries(value).reverse()) {
      // `metadata` at the top level of a body, or of an object in it, is the client's data.
      pending.push({ value: field, path: childPath(path, key, inArray), depth: depth + 1, key, freeForm: freeForm || (!inArray && key === FREE_FORM_FIELD) });
    }
  }
}

/** A body nested deeper than MAX_JSON_DEPTH is refused before anything recurses over it. */
export function refuseDeepJson(body: unknown): void {
  for (const { value, path, depth } of walk(body)) {
    if (depth > MAX_JSON_DEPTH && typeof value === 'object' && value !== null) {
      throw new ApiError(ErrorCode.INVALID_PARAMETER, `Invalid '${path}': JSON may nest at most ${MAX_JSON_DEPTH} levels deep`, path);
    }
  }
}

/**
 * `__proto__`, `constructor` and `prototype` as field names are unknown fields (a 400), never
 * silently dropped or applied to an object's prototype; inside `metadata` they are plain data.
 */
export function refusePrototypeKeys(input: unknown): void {
  for (const { path, key, freeForm } of walk(input)) {
    if (key !== null && !freeForm && PROTOTYPE_KEYS.has(key)) {
      throw new ApiError(ErrorCode.INVALID_PARAMETER, `Unknown field '${path}'`, path);
    }
  }
}

/**
 * U+0000 (which text columns refuse) and lone surrogates (which jsonb refuses), in any string or
 * key of a body or query, are a 400 naming the field.
 */
export function refuseUnstorableText(input: unknown): void {
  for (const { value, path, key } of walk(input)) {
    for (const text of [key, typeof value === 'string' ? value : null]) {
      if (text === null) continue;
      if (text.includes('\u0000')) {
        throw new ApiError(ErrorCode.INVALID_PARAMETER, `Invalid '${path}': text may not contain NUL (\\u0000) characters`, path);
      }
      if (LONE_SURROGATE.test(text)) {
        // JSON may escape half a surrogate pair ("\\ud800").
        throw new ApiError(ErrorCode.INVALID_PARAMETER, `Invalid '${path}': text must be valid Unicode (a lone surrogate was sent)`, path);
      }
    }
  }
}

/**
 * Stands in for a `metadata` object while class-transformer and class-validator run: a class
 * instance with no enumerable keys (so neither walks into the client's data, where a
 * `constructor` key makes class-transformer throw) whose JSON is the metadata (so the size rule
 * measures the real thing). IsMetadataObject keeps the stand-in; unwrapFreeForm puts the data back.
 */
export class FreeFormStandIn {
  declare readonly value: Record<string, unknown>;

  constructor(value: Record<string, unknown> = {}) {
    Object.defineProperty(this, 'value', { value, enumerable: false });
  }

  toJSON(): Record<string, unknown> {
    return this.value;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof FreeFormStandIn);
}

/** Replaces every `metadata` object of a body (at any depth, outside metadata) by its stand-in. */
export function wrapFreeForm(input: unknown): void {
  const pending: unknown[] = [input];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== 'object' || value === null) continue;
    for (const [key, field] of Object.entries(value)) {
      if (!Array.isArray(value) && key === FREE_FORM_FIELD && isPlainObject(field)) (value as Record<string, unknown>)[key] = new FreeFormStandIn(field);
      else pending.push(field);
    }
  }
}

/** Puts the data back where wrapFreeForm (or class-transformer, copying it) left a stand-in. */
export function unwrapFreeForm(input: unknown): void {
  const pending: unknown[] = [input];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== 'object' || value === null || value instanceof FreeFormStandIn) continue;
    for (const [key, field] of Object.entries(value)) {
      if (field instanceof FreeFormStandIn) (value as Record<string, unknown>)[key] = field.value;
      else pending.push(field);
    }
  }
}
