import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { AuthenticatedRequest, hasScope } from './auth-context';
import type { Scope } from './scopes';

/** Whether the caller holds a scope (itself, a broader one, or `*`): for routes whose answer depends on more than their own scope. */
export type CallerScopes = (scope: Scope) => boolean;

/** The request's credential's scopes as a test; only on API-key routes, where the guard set them. */
export const CurrentScopes = createParamDecorator((_data: unknown, context: ExecutionContext): CallerScopes => {
  const auth = context.switchToHttp().getRequest<AuthenticatedRequest>().auth;
  if (!auth) throw new Error('CurrentScopes used on a route without API-key authentication');
  return (scope) => hasScope(auth, scope);
});
