import { TypeID, typeid } from 'typeid-js';

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
  dashboardUser: 'user',
  dashboardSession: 'sess',
} as const;

export type IdPrefix = (typeof ID_PREFIXES)[keyof typeof ID_PREFIXES];

export function generateId(prefix: IdPrefix): string {
  return typeid(prefix).toString();
}

/** True only for a well-formed id with this prefix; callers turn false into a 404. */
export function isValidId(prefix: IdPrefix, value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 64) return false;
  try {
    TypeID.fromString(value, prefix);
    return true;
  } catch {
    return false;
  }
}
