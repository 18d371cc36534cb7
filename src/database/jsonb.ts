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
