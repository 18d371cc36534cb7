import { typeid } from 'typeid-js';

/** Every id prefix of DESIGN §4. The suffix is a UUIDv7 in base32, so ids sort by creation time. */
export const ID_PREFIXES = {
  merchant: 'mer',
  apiKey: 'key',
  customer: 'cus',
  product: 'prod',
  entitlement: 'ent',
  file: 'file',
  download: 'dl',
  event: 'evt',
  webhookEndpoint: 'we',
  webhookDelivery: 'wd',
  order: 'ord',
  grantRule: 'rule',
  subscription: 'sub',
  entitlementImport: 'imp',
  testClock: 'clock',
  dashboardUser: 'user',
  dashboardSession: 'sess',
  licenseKey: 'lic',
  licenseActivation: 'act',
  usageStatement: 'stmt',
  auditEntry: 'aud',
  portalSession: 'ps',
} as const;

export type IdPrefix = (typeof ID_PREFIXES)[keyof typeof ID_PREFIXES];

export function generateId(prefix: IdPrefix): string {
  return typeid(prefix).toString();
}

/**
 * An id's suffix: a UUIDv7 as 26 characters of lower-case Crockford base32, the first at most 7
 * (26 × 5 bits carry 128). The one definition of a well-formed id: isValidId tests it and the
 * OpenAPI document publishes it as each id parameter's pattern (test/unit/ids.spec.ts proves it
 * agrees with typeid-js's own parser).
 */
const ID_SUFFIX = '[0-7][0-9a-hjkmnp-tv-z]{25}';
const ID_SUFFIX_LENGTH = 26;

/** The pattern of an id with this prefix, as a regular expression source (anchored). */
export function idPattern(prefix: IdPrefix): string {
  return `^${prefix}_${ID_SUFFIX}$`;
}

/** The length of every id with this prefix. */
export function idLength(prefix: IdPrefix): number {
  return prefix.length + 1 + ID_SUFFIX_LENGTH;
}

const ID_EXPRESSIONS = new Map<string, RegExp>(Object.values(ID_PREFIXES).map((prefix) => [prefix, new RegExp(idPattern(prefix))]));

/** True only for a well-formed id with this prefix; callers turn false into a 404. */
export function isValidId(prefix: IdPrefix, value: unknown): value is string {
  return typeof value === 'string' && (ID_EXPRESSIONS.get(prefix) as RegExp).test(value);
}
