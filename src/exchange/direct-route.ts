import type { Type } from '@nestjs/common';
import type { ParsedUrlQuery } from 'node:querystring';
import type { Tenant } from '../database/tenant';

/**
 * A controller's GET handler answered before the framework's router, for the hottest route (the
 * access check): Express's and Fastify's per-request pipelines cost several times the check's
 * own work (bench/README.md). Its path and access come from the handler's decorators; `args`
 * builds the handler's arguments from the authenticated tenant (undefined on an open route) and
 * the parsed query string, as its parameter decorators and pipe would. src/http/direct-router.ts
 * answers it.
 */
export interface DirectRouteDefinition<Controller extends object = object> {
  controller: Type<Controller>;
  handler: keyof Controller & string;
  args(tenant: Tenant | undefined, query: ParsedUrlQuery): unknown[];
}
