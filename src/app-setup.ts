import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { AccessGuard } from './auth/access.guard';
import { RequestAuthenticator } from './auth/request-authenticator';
import { AppConfig } from './config/app-config';
import { validateEnvironment } from './config/config.schema';
import { CHECK_DIRECT_ROUTE } from './entitlements/check-direct.route';
import { ClientAddressResolver } from './exchange/client-address';
import type { DirectRouteDefinition } from './exchange/direct-route';
import { AllExceptionsFilter } from './http/all-exceptions.filter';
import { DashboardAssets, portalAssets, WebApps } from './http/dashboard-assets';
import { createHttpPlatform } from './http/create-http-platform';
import type { HttpPlatform } from './http/http-platform';
import { RequestGate } from './http/request-gate';
import { MerchantAdmission } from './rate-limiting/merchant-admission';
import { PinoNestLogger } from './logging/pino-nest.logger';
import { RootLogger } from './logging/root-logger';
import { RequestObserver } from './observability/request-observer';
import { setupSwagger } from './swagger/openapi';
import { createValidationPipe } from './validation/validation-exception.factory';

/** The application and the HTTP platform it runs on (HTTP_ADAPTER). */
export interface ApiApplication {
  app: INestApplication;
  platform: HttpPlatform;
}

/** Handlers answered before the framework's router (src/http/direct-router.ts): the access check. */
const DIRECT_ROUTES: DirectRouteDefinition[] = [CHECK_DIRECT_ROUTE as DirectRouteDefinition];

/** Where the dashboard's uploads go: the local driver's PUBLIC_BASE_URL, and an S3 endpoint (http:// for MinIO and the like). */
function uploadOriginsOf(config: AppConfig): string[] {
  const endpoint = config.s3.endpoint;
  return [new URL(config.publicBaseUrl).origin, ...(endpoint ? [new URL(endpoint).origin] : [])];
}

/** Everything main.ts and the tests share, so tests exercise the real HTTP stack. */
export function configureApp(app: INestApplication, platform: HttpPlatform): void {
  app.useLogger(app.get(PinoNestLogger));
  // Nest buffers logs until listen(); apps that never listen (tests, the CLI) would otherwise log nothing.
  app.flushLogs();
  const config = app.get(AppConfig);
  platform.install(app, {
    gate: new RequestGate(
      app.get(RequestAuthenticator),
      config.httpTimeouts,
      config.dashboardEnabled,
      new ClientAddressResolver(config.trustProxy),
      app.get(MerchantAdmission),
    ),
    guard: app.get(AccessGuard),
    directRoutes: DIRECT_ROUTES.map((definition) => ({ definition, instance: app.get(definition.controller) })),
    logger: app.get(RootLogger).pino,
    requests: app.get(RequestObserver),
    dashboard: new WebApps([...(config.dashboardEnabled ? [new DashboardAssets({ uploadOrigins: uploadOriginsOf(config) })] : []), portalAssets()]),
  });
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new AllExceptionsFilter(platform));
  app.enableShutdownHooks();
  setupSwagger(app, { dashboard: config.dashboardEnabled });
}

/**
 * Creates the application on the adapter HTTP_ADAPTER names, from `module` (AppModule by
 * default; tests add modules beside it). `overrides` replace environment variables.
 */
export async function createApiApplication(overrides: Record<string, string | undefined> = {}, module?: DynamicModule | Type<unknown>): Promise<ApiApplication> {
  const environment = validateEnvironment({ ...process.env, ...overrides });
  const platform = await createHttpPlatform(environment.HTTP_ADAPTER, {
    headersMilliseconds: environment.HTTP_HEADERS_TIMEOUT,
    requestMilliseconds: environment.HTTP_REQUEST_TIMEOUT,
  });
  const app = await NestFactory.create(module ?? AppModule.forRoot(overrides), platform.adapter, { bodyParser: false, bufferLogs: true });
  configureApp(app, platform);
  return { app, platform };
}

export async function createApp(overrides: Record<string, string | undefined> = {}): Promise<INestApplication> {
  return (await createApiApplication(overrides)).app;
}
