import type { INestApplication } from '@nestjs/common';
import type { AbstractHttpAdapter } from '@nestjs/core';
import type { Logger } from 'pino';
import type { RequestObserver } from '../observability/request-observer';
import type { ErrorReplier } from './all-exceptions.filter';
import type { WebApp } from './dashboard-assets';
import type { AccessGuard } from '../auth/access.guard';
import type { DirectRouterServices } from './direct-router';
import type { RequestGate } from './request-gate';

export type HttpAdapterName = 'express' | 'fastify';

/** What the platform wires into the server's earliest hook. */
export interface PlatformServices {
  gate: RequestGate;
  /** The global guard's decision, asked by the direct routes too. */
  guard: AccessGuard;
  /** Handlers answered before the framework's router (direct-router.ts), with their controllers. */
  directRoutes: DirectRouterServices['routes'];
  /** The request log's logger. */
  logger: Logger;
  /** Metrics (and traces) of every request. */
  requests: RequestObserver;
  /** The built web apps: the dashboard at /dashboard (unless DASHBOARD_ENABLED=false) and the portal at /portal. */
  dashboard: WebApp | null;
}

/**
 * Everything that differs between Express and Fastify, behind one interface with one
 * implementation per adapter (HTTP_ADAPTER). Nothing outside src/http/ imports either framework;
 * the rest of the code reads requests and writes responses through http-exchange.ts.
 *
 * Both implementations give the same answers, down to status codes, headers and error bodies:
 * they run the same request gate (path rules, authentication before the body, the JSON body
 * rules, deadlines) on the same Node server (node-server.ts) with the same routing rules
 * (case-sensitive; a trailing slash ignored; the same query-string parser).
 */
export interface HttpPlatform extends ErrorReplier {
  readonly name: HttpAdapterName;
  /** The Nest adapter the application is created with. */
  readonly adapter: AbstractHttpAdapter;
  /** Registers the request gate, the security headers, the request id and the request log, before any route. */
  install(app: INestApplication, services: PlatformServices): void;
  /** Every route the server serves, as `METHOD /path` (`:name` parameters), HEAD aside: for tests. */
  servedRoutes(app: INestApplication): string[];
  /** Completes route registration for a server that is driven without listen() (supertest). */
  ready(): Promise<void>;
}
