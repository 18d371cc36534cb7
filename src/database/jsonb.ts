import { isDeepStrictEqual } from 'node:util';

/**
 * Whether two values hold the same JSON content: what a jsonb column would store for each. jsonb
 * keeps no key order (it stores shorter keys first), so comparing serialized text would see a
 * change where there is none; values are compared as JSON (a Date as its ISO string, undefined
 * as null), objects by their keys whatever the order, arrays in order.
 */
export function sameJsonContent(left: unknown, right: unknown): boolean {
  const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? null));
  return isDeepStrictEqual(asJson(left), asJson(right));
}

/** jsonb's order of an object's keys: shorter keys first, then by their UTF-8 bytes. */
function jsonbKeyOrder(left: string, right: string): number {
  const leftBytes = Buffer.from(left, 'utf8');
  const rightBytes = Buffer.from(right, 'utf8');
  return leftBytes.length - rightBytes.length || Buffer.compare(leftBytes, rightBytes);
}

/**
 * A JSON value as a jsonb column stores it and every read gives it back: object keys in jsonb's
 * order at every depth, every key kept as an own property (`__proto__` included: JSON.parse makes
 * it one, and jsonb stores it like any other key). What a write answers and publishes is built
 * from this, so it is byte for byte what a later GET, event or replay shows; the SQL form of the
 * rule is PostgreSQL's own, and test/e2e/rules-agree.e2e-spec.ts compares the two.
 */
export function storedJsonb<Value>(value: Value): Value {
  return ordered(JSON.parse(JSON.stringify(value ?? null)) as unknown) as Value;
}

function ordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ordered);
  if (value === null || typeof value !== 'object') return value;
  const source = value as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(source).sort(jsonbKeyOrder)) {
    // defineProperty, not assignment: `result.__proto__ = …` would set the prototype and drop the key.
    Object.defineProperty(result, key, { value: ordered(source[key]), enumerable: true, writable: true, configurable: true });
  }
  return result;
}
