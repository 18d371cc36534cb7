import type { OpenAPIObject } from '@nestjs/swagger';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { ISO_TIMESTAMP_RULE } from '../validation/iso-timestamp';
import { INT4_MAX } from '../database/columns';
import { CLOSED_BY_OWN_PARSER, VALIDATED_BODIES_REFUSE_UNKNOWN_FIELDS } from '../validation/unknown-fields';
import { ID_PREFIXES, idLength } from '../ids/id';
import { REQUEST_ID_LENGTH } from '../envelope/request-id';
import { STORE_ID_MAX_LENGTH, TIMESTAMP_MAX_LENGTH } from '../validation/input-bounds';

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
 * - a nullable enum lists `null` among its values, as JSON Schema validators and generators need;
 * - a request body the server closes to unknown fields (src/validation/unknown-fields.ts) says
 *   `additionalProperties: false`, so a validating client or proxy refuses the same typo;
 * - response strings and integers carry the bounds of what the service stores and writes
 *   (boundResponse): a field a request sets keeps that request's bounds, ids and timestamps theirs.
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

/** The widest bounds request schemas put on a field of this name: what a response may echo back. */
interface FieldBounds {
  minimum?: number;
  maximum?: number;
  maxLength?: number;
}

function widen(bounds: Map<string, FieldBounds>, name: string, schema: SchemaObject): void {
  const target = schema.type === 'array' && schema.items ? schema.items : schema;
  if (target.$ref) return;
  const known = bounds.get(name) ?? {};
  const wider = (current: number | undefined, next: number | undefined, pick: (a: number, b: number) => number) =>
    current === undefined ? next : next === undefined ? current : pick(current, next);
  bounds.set(name, {
    minimum: wider(known.minimum, target.minimum, Math.min),
    maximum: wider(known.maximum, target.maximum, Math.max),
    maxLength: wider(known.maxLength, target.maxLength, Math.max),
  });
}

/** Our ids' longest form (`clock_…`): every id the service writes has its prefix's exact length. */
const OUR_ID_MAX_LENGTH = Math.max(...Object.values(ID_PREFIXES).map((prefix) => idLength(prefix)));
const ID_NAME = /(^id|_id|_ids|^test_clock)$/;
/**
 * Response fields whose value is not what a request of that name set: a confirmed file's size is
 * the object's (within 10% of the declared one, so up to 10% over the declared limit).
 */
const STORED_OTHERWISE = new Set(['file_size']);
/** Response fields that store a request field under another name. */
const STORED_FROM: Record<string, string> = { product_name: 'name', revocation_reason: 'reason', suspension_reason: 'reason', next_cursor: 'cursor' };
/** JSON numbers the service writes are JavaScript numbers: an integer beyond this is not exact. */
const LARGEST_EXACT_INTEGER = Number.MAX_SAFE_INTEGER;

/**
 * Bounds for a response field that has none: the request field of the same name's (the service
 * stores only what it accepted), an id's or timestamp's length, and for counters and byte totals
 * (never negative) the largest exact JSON integer. A bound the DTO states is kept.
 */
function boundResponse(schema: SchemaObject, name: string | null, requestBounds: Map<string, FieldBounds>): void {
  const fromRequest = name !== null && !STORED_OTHERWISE.has(name) ? requestBounds.get(STORED_FROM[name] ?? name) : undefined;
  if (schema.type === 'integer') {
    if (schema.minimum === undefined) schema.minimum = fromRequest?.minimum ?? 0;
    if (schema.maximum === undefined) schema.maximum = fromRequest?.maximum ?? LARGEST_EXACT_INTEGER;
  }
  if (schema.type === 'string' && schema.maxLength === undefined && !schema.enum) {
    if (name === 'request_id') schema.maxLength = REQUEST_ID_LENGTH;
    else if (schema.format === 'date-time') schema.maxLength = TIMESTAMP_MAX_LENGTH;
    else if (fromRequest?.maxLength !== undefined) schema.maxLength = fromRequest.maxLength;
    else if (name !== null && ID_NAME.test(name)) schema.maxLength = name.startsWith('store_') ? STORE_ID_MAX_LENGTH : OUR_ID_MAX_LENGTH;
  }
  for (const [property, child] of Object.entries(schema.properties ?? {})) if (!child.$ref) boundResponse(child, property, requestBounds);
  if (schema.items && !schema.items.$ref) boundResponse(schema.items, name, requestBounds);
  for (const part of [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])]) if (!part.$ref) boundResponse(part, name, requestBounds);
}

/** Request schemas with no class-validator rules: import rows are checked one by one as they are processed. */
const UNVALIDATED_INPUTS = new Set(['ImportRowDto']);

/** Whether the server refuses fields this request schema doesn't list (the validation pipe's rule, or the schema's own parser's). */
function refusesUnknownFields(name: string, validated: boolean): boolean {
  return (validated && VALIDATED_BODIES_REFUSE_UNKNOWN_FIELDS) || CLOSED_BY_OWN_PARSER.has(name);
}

export function makeDocumentPrecise(document: OpenAPIObject): void {
  const classes = validatedClasses();
  const schemas = (document.components?.schemas ?? {}) as Record<string, SchemaObject>;
  const isInput = (name: string) => classes.has(name) || name.endsWith('FulfillmentConfigDto') || UNVALIDATED_INPUTS.has(name);
  const requestBounds = new Map<string, FieldBounds>();
  for (const [name, schema] of Object.entries(schemas)) {
    // A class with validation rules is a request body; the others are responses.
    applyRules(schema, classes.get(name));
    refine(schema, null, isInput(name));
    if (schema.properties && schema.additionalProperties === undefined && refusesUnknownFields(name, classes.has(name))) schema.additionalProperties = false;
    if (isInput(name)) for (const [property, child] of Object.entries(schema.properties ?? {})) widen(requestBounds, property, child);
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
  const responseSchemas: SchemaObject[] = [];
  for (const pathItem of Object.values(document.paths)) {
    for (const operation of Object.values(pathItem) as Array<{ parameters?: ParameterObject[]; responses?: Record<string, { content?: Record<string, { schema?: SchemaObject }> }> }>) {
      for (const parameter of operation.parameters ?? []) {
        if (!parameter.schema) continue;
        if (parameter.in === 'query') for (const rule of queryRules.get(parameter.name) ?? []) applyRule(parameter.schema, rule);
        // A query string has no null: an absent parameter is the optional case.
        delete parameter.schema.nullable;
        refine(parameter.schema, parameter.name, true);
        if (parameter.in === 'query') widen(requestBounds, parameter.name, parameter.schema);
      }
      for (const response of Object.values(operation.responses ?? {})) {
        for (const media of Object.values(response.content ?? {})) if (media.schema) responseSchemas.push(media.schema);
      }
    }
  }
  // Responses last, once every request field's bounds are known.
  for (const schema of responseSchemas) {
    refine(schema, null, false);
    boundResponse(schema, null, requestBounds);
  }
  for (const [name, schema] of Object.entries(schemas)) if (!isInput(name)) boundResponse(schema, null, requestBounds);
}
