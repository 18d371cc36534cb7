import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { AuthenticatedRequest } from './auth-context';
import type { Tenant } from '../database/tenant';

/** The authenticated tenant (merchant id + mode); only on API-key routes, where the guard set it. */
export const CurrentTenant = createParamDecorator((_data: unknown, context: ExecutionContext): Tenant => {
  const auth = context.switchToHttp().getRequest<AuthenticatedRequest>().auth;
  if (!auth) throw new Error('CurrentTenant used on a route without API-key authentication');
  return auth.tenant;
});
