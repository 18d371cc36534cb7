import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { clientOf } from './client-address';
import { HttpRequest, rawRequestOf } from './http-exchange';

/** The request's client address as the request gate resolved it (TRUST_PROXY, DESIGN §15). */
export const ClientAddress = createParamDecorator((_data: unknown, context: ExecutionContext): string => {
  return clientOf(rawRequestOf(context.switchToHttp().getRequest<HttpRequest>())).address;
});
