import type { OpenAPIObject } from '@nestjs/swagger';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { ISO_TIMESTAMP_RULE } from '../validation/iso-timestamp';
import { INT4_MAX } from '../database/columns';

/**
 * Makes the generated document say what the service enforces, on the built document so that a
 * route added later gets the same treatment without remembering a decorator option:
 * - length, size and range rules come from the DTOs' class-validator rules, the ones that run,
 *   and so does `nullable` (@IsOptional lets an explicit null through);
 * - timestamps are `format: date-time`: request fields and query filters that IsIsoTimestamp
 *   guards (which also accepts other ISO 8601 forms with an offset: RFC 3339 is the one to send),
 *   response fields by name (`*_at`, `current_period_end`, `timestamp`);
 * - numbers are integers (nothing in this API is fractional; a fractional field says so with
 *   `format: 'double'`), int32 or int64 by their enforced range;
 * - a nullable enum lists `null` among its values, as JSON Schema validators and generators need.
 */

export interface SchemaObject {
  type?: string;
  format?: string;
  enum?: unknown[];
  nullable?: boolean;
  properties?: Record<string, SchemaObject>;
  items?: SchemaObject;
  allOf?: SchemaObject[];
  oneOf?: SchemaObject[];
  anyOf?: SchemaObject[];
  additionalProperties?: boolean | SchemaObject;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  $ref?: string;
  [keyword: string]: unknown;
}

interface ParameterObject {
  name: string;
  in: string;
  schema?: SchemaObject;
}

const TIMESTAMP_NAME = /(_at|_after|_before|_period_end|^timestamp)$/;

/** Classes class-validator knows, by name (the name nestjs/swagger gives their schema). */
function validatedClasses(): Map<string, ValidationMetadata[]> {
  const storage = getMetadataStorage();
  // The storage keeps targets privately; its public lookup needs the class, so read the keys once.
  const targets = (storage as unknown as { validationMetadatas: Map<new () => object, unknown> }).validationMetadatas;
  const byName = new Map<string, ValidationMetadata[]>();
  for (const target of targets.keys()) {
    if (!byName.has(target.name)) byName.set(target.name, storage.getTargetValidationMetadatas(target, '', true, false));
  }
  return byName;
}

/** Writes one enforced rule into the schema of the field (or of its items, for `each` rules). */
function applyRule(schema: SchemaObject, rule: ValidationMetadata): void {
  const target = rule.each ? schema.items : schema;
  if (!target) return;
  const [first, second] = rule.constraints ?? [];
  // @IsOptional skips validation for null as for undefined: the service accepts an explicit null.
  if (rule.type === ValidationTypes.CONDITIONAL_VALIDATION && rule.name === 'isOptional' && !rule.each) {
    schema.nullable = true;
    return;
  }
  switch (rule.type === ValidationTypes.CUSTOM_VALIDATION ? rule.name : rule.type) {
    case ISO_TIMESTAMP_RULE:
      target.format = 'date-time';
      break;
    case 'isInt':
      target.type = 'integer';
      break;
    case 'maxLength':
      target.maxLength = first as number;
      break;
    case 'minLength':
      target.minLength = first as number;
      break;
    case 'isLength':
      target.minLength = first as number;
      if (typeof second === 'number') target.maxLength = second;
      break;
    case 'arrayMaxSize':
      schema.maxItems = first as number;
      break;
    case 'arrayMinSize':
      schema.minItems = first as number;
      break;
    case 'min':
      target.minimum = first as number;
      break;
    case 'max':
      target.maximum = first as number;
      break;
    default:
      break;
  }
}

function applyRules(schema: SchemaObject, rules: ValidationMetadata[] | undefined): void {
  if (!rules || !schema.properties) return;
  for (const rule of rules) {
    const property = schema.properties[rule.propertyName];
    if (property && !property.$ref) applyRule(property, rule);
  }
}

/**
 * Timestamps, integers and nullable enums, everywhere in a schema. An `input` schema's (request
 * bodies and query parameters) timestamps are the fields IsIsoTimestamp guards (applyRule marks
 * them), not names: a name says nothing of what the service accepts.
 */
function refine(schema: SchemaObject, name: string | null, input: boolean): void {
  if (!input && schema.type === 'string' && name !== null && TIMESTAMP_NAME.test(name) && !schema.format && !schema.enum) schema.format = 'date-time';
  if (schema.type === 'number' && !schema.format) schema.type = 'integer';
  // int32 where the enforced range fits it, int64 otherwise (byte counts, unbounded counters).
  if (schema.type === 'integer' && !schema.format) schema.format = schema.maximum !== undefined && schema.maximum <= INT4_MAX ? 'int32' : 'int64';
  if (schema.nullable && schema.enum && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
  // An empty `properties` beside a oneOf (what keeps Nest from adding an allOf) would read as "no
  // properties evaluated here" to validators of examples: the oneOf says it all.
  if (schema.oneOf && schema.properties && Object.keys(schema.properties).length === 0) delete schema.properties;
  for (const [property, child] of Object.entries(schema.properties ?? {})) refine(child, property, input);
  if (schema.items) refine(schema.items, name, input);
  for (const part of [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])]) refine(part, name, input);
}

/** Request schemas with no class-validator rules: import rows are checked one by one as they are processed. */
const UNVALIDATED_INPUTS = new Set(['ImportRowDto']);

export function makeDocumentPrecise(document: OpenAPIObject): void {
  const classes = validatedClasses();
  const schemas = (document.components?.schemas ?? {}) as Record<string, SchemaObject>;
  for (const [name, schema] of Object.entries(schemas)) {
    // A class with validation rules is a request body; the others are responses.
    applyRules(schema, classes.get(name));
    refine(schema, null, classes.has(name) || name.endsWith('FulfillmentConfigDto') || UNVALIDATED_INPUTS.has(name));
  }
  // Query DTOs are spread into parameters, which keep no link to their class: a parameter takes
  // the rules of the field of that name in the query classes (they agree: limit, cursor, ids).
  const queryRules = new Map<string, ValidationMetadata[]>();
  for (const [name, rules] of classes) {
    if (!/Query/.test(name)) continue;
    for (const rule of rules) {
      if (!queryRules.has(rule.propertyName)) queryRules.set(rule.propertyName, rules.filter((each) => each.propertyName === rule.propertyName));
    }
  }
  for (const pathItem of Object.values(document.paths)) {
    for (const operation of Object.values(pathItem) as Array<{ parameters?: ParameterObject[]; responses?: Record<string, { content?: Record<string, { schema?: SchemaObject }> }> }>) {
      for (const parameter of operation.parameters ?? []) {
        if (!parameter.schema) continue;
        if (parameter.in === 'query') for (const rule of queryRules.get(parameter.name) ?? []) applyRule(parameter.schema, rule);
        // A query string has no null: an absent parameter is the optional case.
        delete parameter.schema.nullable;
        refine(parameter.schema, parameter.name, true);
      }
      for (const response of Object.values(operation.responses ?? {})) {
        for (const media of Object.values(response.content ?? {})) if (media.schema) refine(media.schema, null, false);
      }
    }
  }
}
