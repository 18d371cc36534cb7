import type { IncomingMessage } from 'node:http';
import { Logger as NestLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import helmet from 'helmet';
import { AppModule } from './app.module';
import { requestIdOf } from './envelope/request-id';
import { AllExceptionsFilter, sendApiError, toApiError } from './errors/all-exceptions.filter';
import { PinoNestLogger } from './logging/pino-nest.logger';
import { registerRequestLog } from './logging/request-log';
import { RootLogger } from './logging/root-logger';
import { setupSwagger } from './swagger/openapi';
import { JSON_BODY_LIMIT_BYTES, refuseUnstorableInput, registerBodyParsers } from './validation/request-body.hooks';
import { createValidationPipe } from './validation/validation-exception.factory';

const frameworkLogger = new NestLogger('Errors');

/** The HTTP server: Fastify (on Express, Nest capped the access check near 1,200 req/s here; README, Decisions). */
export function createHttpAdapter(): FastifyAdapter {
  return new FastifyAdapter({
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    // Ids are ours to validate (a 404 in the catalogue's shape), not the router's; `/v1/products/`
    // is `/v1/products`, as it was under Express.
    routerOptions: { maxParamLength: 2_000, ignoreTrailingSlash: true },
    genReqId: (request: IncomingMessage) => requestIdOf(request),
    // Errors of the router itself (a malformed percent-encoding in the path), before any hook runs.
    // Errors thrown later (parsers, hooks, handlers) reach Nest's handler and AllExceptionsFilter.
    frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) => sendApiError(reply, request, toApiError(error, request, frameworkLogger)),
    // The request lines come from registerRequestLog; Fastify's own logger stays off.
    logger: false,
  });
}

/** Everything main.ts and the tests share, so tests exercise the real HTTP stack. */
export async function configureApp(app: NestFastifyApplication): Promise<void> {
  app.useLogger(app.get(PinoNestLogger));
  // Nest buffers logs until listen(); apps that never listen (tests, the CLI) would otherwise log nothing.
  app.flushLogs();
  const fastify = app.getHttpAdapter().getInstance();
  // Helmet's middleware is built once here (@fastify/helmet rebuilds it on every request).
  // No upgrade-insecure-requests: it would break Swagger UI's assets on a plain-HTTP deployment.
  const securityHeaders = helmet({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } });
  // One synchronous hook for every request (each hook costs): the request id header and helmet's.
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    securityHeaders(request.raw, reply.raw, () => done());
  });
  registerRequestLog(fastify, app.get(RootLogger).pino);
  registerBodyParsers(fastify);
  fastify.addHook('preValidation', refuseUnstorableInput);
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new AllExceptionsFilter());
  app.enableShutdownHooks();
  setupSwagger(app);
}

export async function createApp(overrides: Record<string, string | undefined> = {}): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(overrides), createHttpAdapter(), {
    bodyParser: false,
    bufferLogs: true,
  });
  await configureApp(app);
  return app;
}
