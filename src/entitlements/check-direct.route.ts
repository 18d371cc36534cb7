import type { DirectRouteDefinition } from '../exchange/direct-route';
import { parseCheckQuery } from './check-query.pipe';
import { EntitlementsController } from './entitlements.controller';

/**
 * The access check as a direct route (src/exchange/direct-route.ts): the controller's own `check`
 * handler, its path and scope read from its decorators, its arguments as its parameter decorators
 * give them (@CurrentTenant, set once the guard admitted the key) and its pipe parses them
 * (CheckQueryPipe is parseCheckQuery). The framework still serves the route too (HEAD, and a path
 * with a trailing slash), with the same answers.
 */
export const CHECK_DIRECT_ROUTE: DirectRouteDefinition<EntitlementsController> = {
  controller: EntitlementsController,
  handler: 'check',
  args: (tenant, query) => {
    if (!tenant) throw new Error('The check is an API-key route: the guard admits no request without a credential');
    return [tenant, parseCheckQuery(query)];
  },
};
