import type { ApiMode } from './tenant';
import type { CombinedWrite } from './transaction';

/**
 * Who acted (DESIGN §11): a dashboard user, an API key, the operator's admin token, the service
 * itself (the CLI), or the merchant's customer through a portal session (§19: a download, a device
 * deactivated).
 */
export const AUDIT_ACTOR_TYPES = ['user', 'api_key', 'admin', 'system', 'customer'] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

export interface AuditActor {
  readonly type: AuditActorType;
  /** The user's or key's id; `admin` / `cli` for the operator. */
  readonly id: string;
  /** What a person recognises: the user's email, the key's prefix. */
  readonly label: string;
}

/** What was acted on: its type (`entitlement`, `api_key`, `dashboard_user`…) and id. */
export interface AuditObject {
  readonly type: string;
  readonly id: string | null;
}

export const AUDIT_STATUSES = ['succeeded', 'failed'] as const;
export type AuditStatus = (typeof AUDIT_STATUSES)[number];

/**
 * What a write records about itself: carried by its Operation (or passed to `UnitOfWork.run` by
 * the faces that have none) and written by UnitOfWork in the write's own closing statement, so a
 * write never commits without its row and a failed write leaves none.
 */
export interface AuditContext {
  readonly merchantId: string;
  /** The mode acted in; null for what belongs to the merchant's account (sign-ins, the team). */
  readonly mode: ApiMode | null;
  readonly actor: AuditActor;
  /** The operation id, e.g. `entitlements.revoke`. */
  readonly action: string;
  /** The object named by the request (its path); an id the write creates is read from its result. */
  readonly object: AuditObject | null;
  readonly requestId: string | null;
  readonly clientAddress: string | null;
  /** `failed` only for what is recorded because it failed (a sign-in); a failed write records nothing. */
  readonly status?: AuditStatus;
}

/** One row as the audit module writes it. */
export interface AuditEntry extends Omit<AuditContext, 'object' | 'status'> {
  readonly object: AuditObject;
  readonly status: AuditStatus;
}

/** Emitted (awaited) by UnitOfWork before a recorded write commits; the audit module adds its part to `combined`. */
export const AUDIT_RECORD = 'audit.record';

export class AuditRecord {
  constructor(
    readonly entry: AuditEntry,
    readonly combined: CombinedWrite,
  ) {}
}

/** Object types by id prefix (src/ids/id.ts): a write's result names its object by its id. */
const OBJECT_TYPES_BY_PREFIX: Readonly<Record<string, string>> = {
  mer: 'merchant',
  key: 'api_key',
  cus: 'customer',
  prod: 'product',
  ent: 'entitlement',
  file: 'file',
  dl: 'download',
  evt: 'event',
  we: 'webhook_endpoint',
  wd: 'webhook_delivery',
  ord: 'order',
  rule: 'grant_rule',
  sub: 'subscription',
  imp: 'entitlement_import',
  clock: 'test_clock',
  user: 'dashboard_user',
  sess: 'dashboard_session',
  lic: 'license_key',
  act: 'license_activation',
  stmt: 'usage_statement',
  ps: 'portal_session',
};

/**
 * Every object type a row may name (a closed set, enumerated in the document): the types of our
 * ids, the collections a write may name without one (the portal's branding, the month's usage),
 * and `unknown` for a path that names neither.
 */
export const AUDIT_OBJECT_TYPES = [...new Set(Object.values(OBJECT_TYPES_BY_PREFIX)), 'portal_setting', 'usage', 'unknown'] as const;
export type AuditObjectType = (typeof AUDIT_OBJECT_TYPES)[number];

/** A type derived from a path's collection, kept only when it is one of the closed set. */
export function knownObjectType(type: string): string {
  return (AUDIT_OBJECT_TYPES as readonly string[]).includes(type) ? type : 'unknown';
}

/** The object type an id names by its prefix, or null when it is no id of ours. */
export function objectTypeOfId(id: string): string | null {
  const separator = id.lastIndexOf('_');
  return separator > 0 ? (OBJECT_TYPES_BY_PREFIX[id.slice(0, separator)] ?? null) : null;
}

/**
 * The object a write acted on: the record its result is (a create's new one, `body` of an upsert's
 * StatusResult, a key made under a merchant's path), else the one its path named (a download's
 * file), else the request's own resource.
 */
export function auditObjectOf(context: AuditContext, result: unknown): AuditObject {
  const resultId = idOf(result);
  if (resultId !== null) return { type: objectTypeOfId(resultId) ?? context.object?.type ?? 'unknown', id: resultId };
  return context.object ?? { type: 'unknown', id: null };
}

function idOf(result: unknown): string | null {
  if (result === null || typeof result !== 'object') return null;
  const record = result as Record<string, unknown>;
  if (typeof record.id === 'string' && objectTypeOfId(record.id) !== null) return record.id;
  // An upsert's StatusResult (envelope layer, above this one): its body is the record.
  if ('body' in record && 'status' in record) return idOf(record.body);
  return null;
}
