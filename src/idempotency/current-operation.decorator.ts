import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { AuthenticatedRequest } from '../auth/auth-context';
import { inTenant, requestAuditOf } from '../auth/request-audit';
import type { IdempotencyClaim, Operation } from '../database/operation';

const IDEMPOTENCY_CLAIM = Symbol('idempotencyClaim');
type WithClaim = { [IDEMPOTENCY_CLAIM]?: IdempotencyClaim };

/** Set by IdempotencyInterceptor on a POST with an Idempotency-Key, before the handler runs. */
export function attachIdempotencyClaim(request: object, claim: IdempotencyClaim): void {
  (request as WithClaim)[IDEMPOTENCY_CLAIM] = claim;
}

/**
 * The write operation of an API-key route: the tenant, and the request's idempotency claim when
 * it carries a key. The service passes it to UnitOfWork.run, which records the key, the
 * response and the audit row in the write's own transaction.
 */
export const CurrentOperation = createParamDecorator((_data: unknown, context: ExecutionContext): Operation => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest & WithClaim>();
  if (!request.auth) throw new Error('CurrentOperation used on a route without API-key authentication');
  const { tenant, actor, credential } = request.auth;
  // Every write of an authenticated request records its audit row in its own transaction (DESIGN §11).
  const audit = inTenant(requestAuditOf(context, actor), tenant.merchantId, tenant.mode);
  return { tenant, idempotency: request[IDEMPOTENCY_CLAIM] ?? null, credential, audit };
});
