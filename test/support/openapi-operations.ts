import type { INestApplication } from '@nestjs/common';
import { ADMIN_TOKEN_SECURITY } from '../../src/swagger/security-schemes';
import { buildOpenApiDocument } from '../../src/swagger/openapi';

/** The parts of a JSON schema the suites read (the document nestjs/swagger generates). */
export interface JsonSchema {
  $ref?: string;
  allOf?: JsonSchema[];
  type?: string;
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  nullable?: boolean;
  example?: unknown;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  additionalProperties?: boolean | JsonSchema;
}

export interface OperationParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: JsonSchema;
}

/** One operation of the document: a method and a path template, with what it takes and needs. */
export interface ApiOperation {
  /** e.g. "PATCH /v1/products/{product_id}" */
  key: string;
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  template: string;
  pathParameters: OperationParameter[];
  queryParameters: OperationParameter[];
  headerParameters: OperationParameter[];
  /** The resolved JSON body schema, or null when the operation declares no body. */
  body: JsonSchema | null;
  bodyRequired: boolean;
  requiredScopes: string[];
  isAdmin: boolean;
  isPublic: boolean;
}

interface RawOperation {
  parameters?: Array<{ name: string; in: OperationParameter['in']; required?: boolean; schema?: JsonSchema }>;
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  security?: Array<Record<string, string[]>>;
  'x-required-scopes'?: string[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Resolves `$ref` and single-schema `allOf` wrappers (nestjs/swagger emits both) into one schema. */
export function resolveSchema(schema: JsonSchema | undefined, components: Record<string, JsonSchema>): JsonSchema {
  if (!schema) return {};
  if (schema.$ref) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    const target = components[name];
    if (!target) throw new Error(`The document references an unknown schema ${schema.$ref}`);
    return resolveSchema(target, components);
  }
  if (schema.allOf && schema.allOf.length > 0) {
    const merged: JsonSchema = { ...schema, allOf: undefined };
    for (const part of schema.allOf) Object.assign(merged, resolveSchema(part, components));
    // Keep the wrapper's own annotations (nullable, description) over the target's.
    if (schema.nullable !== undefined) merged.nullable = schema.nullable;
    return merged;
  }
  return schema;
}

/** Every operation of the document the app serves, so a route added later is covered without edits. */
export function documentOperations(app: INestApplication): ApiOperation[] {
  const document = buildOpenApiDocument(app);
  const components = (document.components?.schemas ?? {}) as Record<string, JsonSchema>;
  const operations: ApiOperation[] = [];
  for (const [template, pathItem] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const raw = (pathItem as Record<string, RawOperation | undefined>)[method];
      if (!raw) continue;
      const parameters: OperationParameter[] = (raw.parameters ?? []).map((parameter) => ({
        name: parameter.name,
        in: parameter.in,
        required: parameter.required === true,
        schema: resolveSchema(parameter.schema, components),
      }));
      const jsonBody = raw.requestBody?.content?.['application/json']?.schema;
      const security = raw.security ?? [];
      operations.push({
        key: `${method.toUpperCase()} ${template}`,
        method,
        template,
        pathParameters: parameters.filter((parameter) => parameter.in === 'path'),
        queryParameters: parameters.filter((parameter) => parameter.in === 'query'),
        headerParameters: parameters.filter((parameter) => parameter.in === 'header'),
        body: jsonBody ? resolveSchema(jsonBody, components) : null,
        bodyRequired: raw.requestBody?.required === true,
        requiredScopes: raw['x-required-scopes'] ?? [],
        isAdmin: security.some((requirement) => ADMIN_TOKEN_SECURITY in requirement),
        isPublic: security.length === 0,
      });
    }
  }
  return operations;
}

/** Fills a path template; every value is percent-encoded unless `raw` says it already is. */
export function fillPath(template: string, values: Record<string, string>, raw = false): string {
  return template.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`No value for path parameter {${name}} of ${template}`);
    return raw ? value : encodeURIComponent(value);
  });
}
