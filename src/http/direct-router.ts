import { Logger as NestLogger, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ParsedUrlQuery } from 'node:querystring';
import type { AccessGuard, RouteAccess } from '../auth/access.guard';
import type { AuthContext } from '../auth/auth-context';
import type { DirectRouteDefinition } from '../exchange/direct-route';
import { envelopeOf } from '../envelope/envelope';
import { requestIdOf } from '../envelope/request-id';
import { toApiError } from './all-exceptions.filter';
import { errorReply, ExchangeObservers, startExchange } from './exchange-start';
import { RequestGate } from './request-gate';
import { pathOf } from '../exchange/request-path';
import { parseQueryString } from '../exchange/query-string';
import type { SecurityHeaders } from './security-headers';

/** A definition bound to the application's controller, its path and its access, read from its decorators. */
interface DirectRoute {
  path: string;
  access: RouteAccess;
  answer(auth: AuthContext | undefined, query: ParsedUrlQuery): unknown;
}

/** What the direct router calls: the very services the framework path calls, built once by the platform. */
export interface DirectRouterServices {
  gate: RequestGate;
  guard: AccessGuard;
  securityHeaders: SecurityHeaders;
  observers: ExchangeObservers;
  routes: Array<{ definition: DirectRouteDefinition; instance: object }>;
}

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** A JSON body written as both adapters write one (Express's res.json, Fastify's reply.send): same headers, same bytes. */
function writeJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.statusCode = status;
  response.setHeader('Content-Type', JSON_CONTENT_TYPE);
  response.setHeader('Content-Length', Buffer.byteLength(text));
  response.end(text);
}

function boundRoute({ definition, instance }: DirectRouterServices['routes'][number], guard: AccessGuard): DirectRoute {
  const handler = (instance as Record<string, unknown>)[definition.handler];
  if (typeof handler !== 'function') throw new Error(`${definition.controller.name}.${definition.handler} is not a handler`);
  if (Reflect.getMetadata(METHOD_METADATA, handler) !== RequestMethod.GET) throw new Error(`${definition.controller.name}.${definition.handler} is not a GET route`);
  const segments = [Reflect.getMetadata(PATH_METADATA, definition.controller), Reflect.getMetadata(PATH_METADATA, handler)] as string[];
  const path = `/${segments.map((segment) => segment.replace(/^\/+|\/+$/g, '')).filter((segment) => segment !== '').join('/')}`;
  if (path.includes(':')) throw new Error(`${path}: direct routes have no path parameters`);
  return {
    path,
    access: guard.accessOfHandler(handler, definition.controller),
    answer: (auth, query) => (handler as (...args: unknown[]) => unknown).apply(instance, definition.args(auth?.tenant, query)),
  };
}

/**
 * Answers the direct routes' GET requests from the Node server's request handler, before the
 * framework sees them, with the steps of the framework path and the same functions: the exchange's
 * start (request id, security headers, the request log line: the one "request finished" place),
 * the request gate (path rules, authentication, body rules), the AccessGuard's decision (scope,
 * rate limit and its headers), the handler, the envelope, and the catalogue's error rendering.
 * The answer is the one the framework path gives, byte for byte but for the date, request id and
 * counters (test/e2e/direct-route-parity.e2e-spec.ts compares every case with the same request
 * sent with a trailing slash, which the router serves). Anything else is left to the framework.
 */
export class DirectRouter {
  private readonly routes = new Map<string, DirectRoute>();
  private readonly errorLogger = new NestLogger('Errors');

  constructor(private readonly services: DirectRouterServices) {
    for (const route of services.routes) {
      const bound = boundRoute(route, services.guard);
      this.routes.set(bound.path, bound);
    }
  }

  /** Whether the request is a direct route's (then it is answered here); false leaves it to the framework. */
  handle(request: IncomingMessage, response: ServerResponse): boolean {
    if (request.method !== 'GET' || this.routes.size === 0) return false;
    const url = request.url ?? '/';
    const route = this.routes.get(pathOf(url));
    if (!route) return false;
    let auth: AuthContext | undefined;
    // Named once the gate passed, as the framework's routers do (Express routes only then).
    let passed = false;
    const { gate, guard, securityHeaders, observers } = this.services;
    const details = { route: () => (passed ? route.path : undefined), auth: () => auth, clientAddress: () => gate.clientOf(request).address };
    startExchange(request, response, securityHeaders, observers, details, () => {
      gate
        .pass(request, response)
        .then((pass) => {
          passed = true;
          auth = pass.auth;
          return guard.admit(route.access, auth, 'GET', (name, value) => response.setHeader(name, value));
        })
        .then(() => {
          const queryStart = url.indexOf('?');
          return route.answer(auth, parseQueryString(queryStart === -1 ? '' : url.slice(queryStart + 1)));
        })
        .then(
          (result) => writeJson(response, 200, envelopeOf(result, requestIdOf(request))),
          (error: unknown) => this.answerError(request, response, route.path, error),
        );
    });
    return true;
  }

  /** As the platforms' sendError: the catalogue's error, its headers, and the connection closed if a body is left unread. */
  private answerError(request: IncomingMessage, response: ServerResponse, path: string, error: unknown): void {
    if (response.headersSent) return;
    if (RequestGate.leavesBodyUnread(request)) response.setHeader('Connection', 'close');
    const apiError = toApiError(error, { method: 'GET', path, requestId: requestIdOf(request) }, this.errorLogger);
    const reply = errorReply(request, apiError);
    for (const [name, value] of Object.entries(reply.headers)) response.setHeader(name, value);
    writeJson(response, apiError.status, reply.body);
  }
}
