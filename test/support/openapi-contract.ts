import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import jestOpenAPI from 'jest-openapi';
import type { Response } from 'supertest';
import { ERROR_CATALOGUE } from '../../src/errors/error-code.enum';
import { buildOpenApiDocument } from '../../src/swagger/openapi';

/**
 * Every response a test receives from an API route is checked against the OpenAPI document the
 * app serves (the same one `npm run openapi:check` keeps equal to the committed openapi.json),
 * so the document can't drift from behaviour. Routes outside the document (the local storage
 * server, unknown paths, /docs) are not checked.
 */
let installedFor: OpenAPIObject | null = null;
let templates: RegExp[] = [];

/** Every status the error catalogue can answer with. */
const CATALOGUE_STATUSES = [...new Set(Object.values(ERROR_CATALOGUE).map((entry) => entry.status))].map(String);

/**
 * jest-openapi ignores an operation's `default` response, so a catalogue error the operation does
 * not list (a 413 or a 500, say) would fail as "no such status". The copy it checks against
 * spells `default` out for every catalogue status the operation leaves unlisted.
 */
function withDefaultsSpelledOut(document: OpenAPIObject): OpenAPIObject {
  const copy = JSON.parse(JSON.stringify(document)) as OpenAPIObject;
  for (const pathItem of Object.values(copy.paths)) {
    for (const operation of Object.values(pathItem) as Array<{ responses?: Record<string, unknown> }>) {
      const fallback = operation.responses?.default;
      if (!operation.responses || fallback === undefined) continue;
      for (const status of CATALOGUE_STATUSES) operation.responses[status] ??= fallback;
    }
  }
  return copy;
}

export function installContract(app: NestFastifyApplication): void {
  if (installedFor) return;
  installedFor = buildOpenApiDocument(app);
  jestOpenAPI(withDefaultsSpelledOut(installedFor) as unknown as Parameters<typeof jestOpenAPI>[0]);
  templates = Object.keys(installedFor.paths).map(
    (template) => new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^/}]+\}/g, '[^/]+')}$`),
  );
}

function documentedPath(response: Response): boolean {
  const request = (response as unknown as { req?: { path?: string } }).req;
  const path = request?.path?.split('?')[0] ?? '';
  // The validator decodes the path and throws on a malformed escape (the fuzzing suite sends
  // those on purpose, and checks those responses' error shape itself).
  try {
    decodeURIComponent(path);
  } catch {
    return false;
  }
  return templates.some((template) => template.test(path));
}

/** A supertest `.expect()` callback. */
export function satisfiesContract(response: Response): void {
  if (!installedFor || !documentedPath(response)) return;
  // A route the document has, answered by the unknown-route handler, is a path outside it.
  if (response.status === 404 && response.body?.error?.code === 'NOT_FOUND' && /^No route /.test(response.body.error.message ?? '')) return;
  expect(response).toSatisfyApiSpec();
}
