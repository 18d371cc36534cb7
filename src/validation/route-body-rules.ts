import { BodyReadRules, JSON_BODY_LIMIT_BYTES } from './request-body';

/** How a route's body is read: its size limit (and what a 413 calls it), and whether text/csv is accepted beside JSON. */
export type BodyRules = BodyReadRules;

export const DEFAULT_BODY_RULES: BodyRules = { limitBytes: JSON_BODY_LIMIT_BYTES, limitText: '1 MiB', acceptsCsv: false };

/** The only exception to DESIGN §4's 1 MiB of JSON: an entitlement import, up to 20 MiB of JSON or CSV (§10). */
const IMPORT_BODY_RULES: BodyRules = { limitBytes: 20 * 1024 * 1024, limitText: '20 MiB', acceptsCsv: true };
const IMPORT_PATHS = new Set(['/v1/entitlement-imports', '/v1/entitlement-imports/']);

/** The body rules of a request, decided before any of its body is read (the same on both adapters). */
export function bodyRulesFor(method: string, path: string): BodyRules {
  return method === 'POST' && IMPORT_PATHS.has(path) ? IMPORT_BODY_RULES : DEFAULT_BODY_RULES;
}
