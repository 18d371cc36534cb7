import { INestApplication, Logger, NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import express, { Express, NextFunction, Request, Response } from 'express';
import { parseQueryString } from '../exchange/query-string';
import type { AuthenticatedRequest } from '../auth/auth-context';
import type { HttpTimeouts } from '../config/app-config';
import { describeRequest, toApiError } from './all-exceptions.filter';
import type { ApiError } from '../errors/api-error';
import { errorReply, startExchange } from './exchange-start';
import type { HttpPlatform, PlatformServices } from './http-platform';
import { DirectRouter } from './direct-router';
import { createNodeServer, FrontHandler } from './node-server';
import { RequestGate } from './request-gate';
import { createSecurityHeaders } from './security-headers';

/** Nest's Express adapter on the shared Node server (node-server.ts: the slow-client timeouts). */
class TimedExpressAdapter extends ExpressAdapter {
  constructor(
    instance: Express,
    private readonly timeouts: HttpTimeouts,
    private readonly front: FrontHandler,
  ) {
    super(instance);
  }

  override initHttpServer(options: NestApplicationOptions): void {
    if (options.httpsOptions) return super.initHttpServer(options);
    this.httpServer = createNodeServer(this.getInstance<Express>(), this.timeouts, this.front);
  }
}

interface RouteLayer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
}

/** Express, the design card's adapter and the default (HTTP_ADAPTER=express). */
export class ExpressPlatform implements HttpPlatform {
  readonly name = 'express' as const;
  readonly adapter: TimedExpressAdapter;
  private readonly errorLogger = new Logger('Errors');
  /** Set by install(): the direct routes, answered before Express sees the request. */
  private direct: DirectRouter | null = null;

  constructor(timeouts: HttpTimeouts) {
    const instance = express();
    // Routing rules as under Fastify. They must be set before the adapter creates the router.
    instance.set('case sensitive routing', true);
    instance.set('query parser', (text: string) => parseQueryString(text));
    instance.set('etag', false);
    instance.disable('x-powered-by');
    this.adapter = new TimedExpressAdapter(instance, timeouts, (request, response) => this.direct?.handle(request, response) ?? false);
  }

  install(_app: INestApplication, { gate, guard, logger, requests, dashboard, directRoutes }: PlatformServices): void {
    const securityHeaders = createSecurityHeaders();
    const observers = { logger, requests };
    this.direct = new DirectRouter({ gate, guard, securityHeaders, observers, routes: directRoutes });
    // Registered before Nest adds any route (at init): the first middleware of every request.
    this.adapter.getInstance<Express>().use((request: Request, response: Response, next: NextFunction) => {
      const target = request as Request & AuthenticatedRequest;
      const details = { route: () => (request.route as { path?: string } | undefined)?.path, auth: () => target.auth, clientAddress: () => gate.clientOf(request).address };
      startExchange(request, response, securityHeaders, observers, details, () => {
        if (dashboard?.handles(request)) return dashboard.serve(request, response);
        gate.pass(request, response).then(
          (pass) => {
            target.credential = pass.credential;
            target.auth = pass.auth;
            request.body = pass.body;
            next();
          },
          (error: unknown) => {
            // A body still on its way is never read: the connection goes with the answer.
            if (RequestGate.leavesBodyUnread(request)) response.setHeader('Connection', 'close');
            this.sendError(request, response, toApiError(error, describeRequest(request), this.errorLogger));
          },
        );
      });
    });
  }

  sendError(request: unknown, response: unknown, error: ApiError): void {
    const expressResponse = response as Response;
    if (expressResponse.headersSent) return;
    const reply = errorReply(request as Request, error);
    for (const [name, value] of Object.entries(reply.headers)) expressResponse.setHeader(name, value);
    expressResponse.status(error.status).json(reply.body);
  }

  ready(): Promise<void> {
    return Promise.resolve();
  }

  servedRoutes(): string[] {
    const stack = (this.adapter.getInstance<Express>() as unknown as { router: { stack: RouteLayer[] } }).router.stack;
    const routes: string[] = [];
    for (const { route } of stack) {
      if (!route) continue;
      for (const path of [route.path].flat()) {
        for (const method of Object.keys(route.methods)) if (method !== 'head' && method !== '_all') routes.push(`${method.toUpperCase()} ${path}`);
      }
    }
    return routes;
  }
}
