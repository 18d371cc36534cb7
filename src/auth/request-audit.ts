import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { knownObjectType, objectTypeOfId, type AuditActor, type AuditContext, type AuditObject } from '../database/audit-trail';
import type { ApiMode } from '../database/tenant';
import { requestIdOf } from '../envelope/request-id';
import { clientOf } from '../exchange/client-address';
import { HttpRequest, rawRequestOf, requestPathOf } from '../exchange/http-exchange';
import { operationIdFor } from '../swagger/operation-ids';
import type { AuthenticatedRequest } from './auth-context';

/** The operator's admin token as an actor: one token, no person behind it that the service knows. */
export const ADMIN_ACTOR: AuditActor = { type: 'admin', id: 'admin', label: 'admin token' };
/** The embedded database's first start, seeding the demo merchant. */
export const DEMO_SEED_ACTOR: AuditActor = { type: 'system', id: 'demo', label: 'demo seed' };
/** The CLI as an actor: run on the server by whoever operates it. */
export const CLI_ACTOR: AuditActor = { type: 'system', id: 'cli', label: 'cli' };

/**
 * What a request's write records, but the tenant: who (the credential), what (the route's
 * operation id, as in the OpenAPI document), on what (the path's id), the request id and client
 * address. The faces complete it with the merchant and mode they act in (`inTenant`).
 */
export type RequestAudit = Omit<AuditContext, 'merchantId' | 'mode'>;

export function inTenant(audit: RequestAudit, merchantId: string, mode: ApiMode | null): AuditContext {
  return { ...audit, merchantId, mode };
}

/** The object a path names: its first id of ours (`/v1/entitlements/ent_…/revoke`), else its collection (`/v1/products` → product). */
export function pathObject(path: string): AuditObject {
  const segments = path.split('?')[0].split('/').filter((segment) => segment.length > 0);
  const id = segments.find((segment) => objectTypeOfId(segment) !== null);
  if (id !== undefined) return { type: objectTypeOfId(id) as string, id };
  const collection = segments.find((segment, index) => index > 0 && !/^v\d+$/.test(segment) && segment !== 'api') ?? segments[0] ?? 'unknown';
  return { type: knownObjectType(collection.replace(/-/g, '_').replace(/s$/, '')), id: null };
}

/** The request's audit context for `actor`; the action is the handler's operation id. */
export function requestAuditOf(context: ExecutionContext, actor: AuditActor): RequestAudit {
  const request = context.switchToHttp().getRequest<HttpRequest>();
  const raw = rawRequestOf(request);
  return {
    actor,
    action: operationIdFor(context.getClass().name, context.getHandler().name),
    object: pathObject(requestPathOf(request)),
    requestId: requestIdOf(raw),
    clientAddress: clientOf(raw).address,
  };
}

/**
 * The audit context of a dashboard or admin route (they have no Operation): the session's user,
 * or the admin token. Routes without either credential (sign-in) build theirs in the service.
 */
export const CurrentAudit = createParamDecorator((_data: unknown, context: ExecutionContext): RequestAudit => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  const credential = request.credential;
  if (credential?.kind === 'dashboard-session') {
    return requestAuditOf(context, { type: 'user', id: credential.session.userId, label: credential.session.email });
  }
  if (credential?.kind === 'admin') return requestAuditOf(context, ADMIN_ACTOR);
  if (request.auth) return requestAuditOf(context, request.auth.actor);
  return requestAuditOf(context, { type: 'system', id: 'anonymous', label: 'anonymous' });
});

/** The audit context of a write made without a request: the CLI's command, or the service seeding its demo. */
export function systemAudit(action: string, actor: AuditActor = CLI_ACTOR): RequestAudit {
  return { actor, action, object: null, requestId: null, clientAddress: null };
}
