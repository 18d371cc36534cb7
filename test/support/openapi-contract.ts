import type { NestExpressApplication } from '@nestjs/platform-express';
import type { OpenAPIObject } from '@nestjs/swagger';
import jestOpenAPI from 'jest-openapi';
import type { Response } from 'supertest';
import { buildOpenApiDocument } from '../../src/swagger/openapi';

/**
 * Every response a test receives from an API route is checked against the OpenAPI document the
 * app serves (the same one `npm run openapi:check` keeps equal to the committed openapi.json),
 * so the document can't drift from behaviour. Routes outside the document (the local storage
 * server, unknown paths, /docs) are not checked.
 */
let installedFor: OpenAPIObject | null = null;
let templates: RegExp[] = [];

export function installContract(app: NestExpressApplication): void {
  if (installedFor) return;
  installedFor = buildOpenApiDocument(app);
  jestOpenAPI(installedFor as unknown as Parameters<typeof jestOpenAPI>[0]);
  templates = Object.keys(installedFor.paths).map(
    (template) => new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^/}]+\}/g, '[^/]+')}$`),
  );
}

function documentedPath(response: Response): boolean {
  const request = (response as unknown as { req?: { path?: string } }).req;
  const path = request?.path?.split('?')[0] ?? '';
  return templates.some((template) => template.test(path));
}

/** A supertest `.expect()` callback. */
export function satisfiesContract(response: Response): void {
  if (!installedFor || !documentedPath(response)) return;
  // A route the document has, answered by the unknown-route handler, is a path outside it.
  if (response.status === 404 && response.body?.error?.code === 'NOT_FOUND' && /^No route /.test(response.body.error.message ?? '')) return;
  expect(response).toSatisfyApiSpec();
}
