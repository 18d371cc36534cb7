import { INestApplication, Logger } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage, RequestListener } from 'node:http';
import { parseQueryString } from '../exchange/query-string';
import type { AuthenticatedRequest } from '../auth/auth-context';
import type { HttpTimeouts } from '../config/app-config';
import { requestIdOf } from '../envelope/request-id';
import { describeRequest, toApiError } from './all-exceptions.filter';
import type { ApiError } from '../errors/api-error';
import { errorReply, ExchangeObservers, startExchange } from './exchange-start';
import type { HttpPlatform, PlatformServices } from './http-platform';
import { DirectRouter } from './direct-router';
import { createNodeServer } from './node-server';
import { RequestGate } from './request-gate';
import { createSecurityHeaders, SecurityHeaders } from './security-headers';

/** Beyond Node's 16 KB header limit, so the router never refuses a long segment itself: the gate's path rules decide (404). */
const MAX_PARAM_LENGTH = 16 * 1024;

/** Fastify, the opt-in for its measured speed (HTTP_ADAPTER=fastify). */
export class FastifyPlatform implements HttpPlatform {
  readonly name = 'fastify' as const;
  readonly adapter: FastifyAdapter;
  private readonly errorLogger = new Logger('Errors');
  private readonly routes: string[] = [];
  /** Set by install(); router errors (below) are answered with the same headers as any request. */
  private started: { securityHeaders: SecurityHeaders; observers: ExchangeObservers; gate: RequestGate } | null = null;
  /** Set by install(): the direct routes, answered before Fastify sees the request. */
  private direct: DirectRouter | null = null;

  constructor(timeouts: HttpTimeouts) {
    this.adapter = new FastifyAdapter({
      serverFactory: (handler: RequestListener) => createNodeServer(handler, timeouts, (request, response) => this.direct?.handle(request, response) ?? false),
      routerOptions: {
        maxParamLength: MAX_PARAM_LENGTH,
        // `/v1/products/` is `/v1/products`, as under Express.
        ignoreTrailingSlash: true,
        querystringParser: (text: string) => parseQueryString(text),
      },
      genReqId: (request: IncomingMessage) => requestIdOf(request),
      // Router errors (a malformed percent-encoding) come before any hook: answered here alike.
      frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) => this.answerRouterError(error, request, reply),
      // While closing, requests are answered as usual (Express has no 503 of its own).
      return503OnClosing: false,
      // The request lines come from request-log.ts; Fastify's own logger stays off.
      logger: false,
    });
  }

  install(_app: INestApplication, { gate, guard, logger, requests, dashboard, directRoutes }: PlatformServices): void {
    const fastify = this.adapter.getInstance<FastifyInstance>();
    const securityHeaders = createSecurityHeaders();
    const observers = { logger, requests };
    this.started = { securityHeaders, observers, gate };
    this.direct = new DirectRouter({ gate, guard, securityHeaders, observers, routes: directRoutes });
    fastify.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) if (method !== 'HEAD') this.routes.push(`${method} ${route.url}`);
    });
    // The request gate has read (or refused) the body already; the parser hands it on, and never
    // touches the stream of a request outside the JSON API (the local storage server reads it).
    fastify.removeAllContentTypeParsers();
    fastify.addContentTypeParser('*', (request, _payload, done) => done(null, request.body));
    fastify.addHook('onRequest', (request, reply, done) => {
      const target = request as FastifyRequest & AuthenticatedRequest;
      // Named once the gate passed, as under Express (which routes only then): a refused request's
      // log line and metrics say no route on both adapters.
      let passed = false;
      const details = { route: () => (passed ? request.routeOptions.url : undefined), auth: () => target.auth, clientAddress: () => gate.clientOf(request.raw).address };
      startExchange(request.raw, reply.raw, securityHeaders, observers, details, () => {
        if (dashboard?.handles(request.raw)) {
          // The Node response is written directly; Fastify must not answer a second time.
          reply.hijack();
          return dashboard.serve(request.raw, reply.raw);
        }
        gate.pass(request.raw, reply.raw).then(
          (pass) => {
            passed = true;
            target.credential = pass.credential;
            target.auth = pass.auth;
            request.body = pass.body;
            done();
          },
          (error: unknown) => {
            // A body still on its way is never read: the connection goes with the answer.
            if (RequestGate.leavesBodyUnread(request.raw)) void reply.header('Connection', 'close');
            this.sendError(request, reply, toApiError(error, describeRequest(request), this.errorLogger));
          },
        );
      });
    });
  }

  sendError(request: unknown, response: unknown, error: ApiError): void {
    const reply = response as FastifyReply;
    if (reply.sent) return;
    const { headers, body } = errorReply((request as FastifyRequest).raw, error);
    void reply.headers(headers).status(error.status).send(body);
  }

  async ready(): Promise<void> {
    await this.adapter.getInstance<FastifyInstance>().ready();
  }

  servedRoutes(): string[] {
    return [...this.routes];
  }

  private answerRouterError(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    const apiError = toApiError(error, describeRequest(request), this.errorLogger);
    if (!this.started) return this.sendError(request, reply, apiError);
    const gate = this.started.gate;
    const details = { route: () => undefined, auth: () => undefined, clientAddress: () => gate.clientOf(request.raw).address };
    startExchange(request.raw, reply.raw, this.started.securityHeaders, this.started.observers, details, () => this.sendError(request, reply, apiError));
  }
}
