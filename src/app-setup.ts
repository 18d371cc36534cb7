import { Logger as NestLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import express, { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { AllExceptionsFilter, sendApiError, toApiError } from './errors/all-exceptions.filter';
import { requestIdMiddleware } from './envelope/request-id';
import { setupSwagger } from './swagger/openapi';
import {
  JSON_BODY_LIMIT,
  refuseUnstorableInput,
  requireJsonObjectBody,
  requireUtf8Body,
} from './validation/request-body.middleware';
import { createValidationPipe } from './validation/validation-exception.factory';

/** Everything main.ts and the tests share, so tests exercise the real HTTP stack. */
export function configureApp(app: NestExpressApplication): void {
  app.useLogger(app.get(Logger));
  // Nest buffers logs until listen(); apps that never listen (tests, the CLI) would otherwise log nothing.
  app.flushLogs();
  const errorLogger = new NestLogger('Errors');
  app.set('query parser', 'simple');
  app.use(requestIdMiddleware);
  // No upgrade-insecure-requests: it would break Swagger UI's assets on a plain-HTTP deployment.
  app.use(helmet({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } }));
  app.use(requireUtf8Body);
  app.use(express.json({ limit: JSON_BODY_LIMIT, strict: true, type: ['application/json', 'application/*+json'] }));
  app.use(requireJsonObjectBody);
  app.use(refuseUnstorableInput);
  // Body-parser failures (bad JSON, too large) are rendered here, in the catalogue's shape.
  app.use((error: unknown, request: Request, response: Response, next: NextFunction) => {
    if (response.headersSent) return next(error);
    sendApiError(response, request, toApiError(error, request, errorLogger));
  });
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new AllExceptionsFilter());
  app.enableShutdownHooks();
  setupSwagger(app);
}

export async function createApp(overrides: Record<string, string | undefined> = {}): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(overrides), {
    bodyParser: false,
    bufferLogs: true,
  });
  configureApp(app);
  return app;
}
