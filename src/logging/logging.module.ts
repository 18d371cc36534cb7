import { Module } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import { authOfRawRequest } from '../auth/auth-context';
import { AppConfig } from '../config/app-config';
import { requestIdOf } from '../envelope/request-id';
import { pathOf } from '../http/request-path';
import { routePatternOf } from '../http/route-pattern';

function withRequestContext(request: IncomingMessage, line: Record<string, unknown>): Record<string, unknown> {
  const auth = authOfRawRequest(request);
  return { ...line, merchant_id: auth?.merchantId, mode: auth?.mode, route: routePatternOf(request) };
}

/**
 * JSON logs, one line per request: request id, merchant, route, status, duration. Only the path
 * is logged (never headers or the query string), so keys can't end up in logs.
 */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        pinoHttp: {
          level: config.logLevel,
          genReqId: (request: IncomingMessage) => requestIdOf(request),
          // Added to the completion line, when authentication and routing have happened.
          customSuccessObject: (request: IncomingMessage, _response: ServerResponse, line: Record<string, unknown>) =>
            withRequestContext(request, line),
          customErrorObject: (request: IncomingMessage, _response: ServerResponse, _error: Error, line: Record<string, unknown>) =>
            withRequestContext(request, line),
          serializers: {
            req: (request: { id: string; method: string; url: string }) => ({ id: request.id, method: request.method, path: pathOf(request.url) }),
            res: (response: { statusCode: number }) => ({ status: response.statusCode }),
          },
          redact: ['req.headers.authorization', 'request.headers.authorization'],
          customSuccessMessage: (request: IncomingMessage, response: ServerResponse) =>
            `${request.method} ${routePatternOf(request) ?? pathOf(request.url ?? '')} ${response.statusCode}`,
          customErrorMessage: (request: IncomingMessage, response: ServerResponse) =>
            `${request.method} ${pathOf(request.url ?? '')} ${response.statusCode}`,
          autoLogging: { ignore: (request: IncomingMessage) => request.url === '/health/live' },
        },
      }),
    }),
  ],
})
export class LoggingModule {}
