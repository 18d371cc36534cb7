import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { refusePrototypeKeys, refuseUnstorableText, unwrapFreeForm, wrapFreeForm } from './input-rules';
import { isParsedByOwnPipe } from './parsed-by-own-pipe.decorator';
import { UNKNOWN_FIELD_OPTIONS } from './unknown-fields';

interface FlatError {
  path: string;
  property: string;
  /** The object that held the field (class-validator reports it), to read the field's rules. */
  target: object | undefined;
  value: unknown;
  constraints: Record<string, string>;
  contexts: Record<string, { errorCode?: ErrorCode } | undefined>;
}

function flatten(errors: ValidationError[], parentPath = ''): FlatError[] {
  return errors.flatMap((error) => {
    const path = parentPath ? `${parentPath}.${error.property}` : error.property;
    const own: FlatError[] = error.constraints
      ? [{ path, property: error.property, target: error.target, value: error.value, constraints: error.constraints, contexts: error.contexts ?? {} }]
      : [];
    return [...own, ...flatten(error.children ?? [], path)];
  });
}

/**
 * Whether the field is optional in its DTO: validated only when present (@IsOptional,
 * @IsOptionalNotNull, or every field of a PartialType). A required rule it inherits (a PATCH body
 * derived from the create body keeps @IsDefined) then only means "not null".
 */
function isOptionalField(target: object | undefined, property: string): boolean {
  if (!target) return false;
  return getMetadataStorage()
    .getTargetValidationMetadatas(target.constructor, '', true, false)
    .some((metadata) => metadata.propertyName === property && metadata.type === ValidationTypes.CONDITIONAL_VALIDATION);
}

/** Edits (insert, delete, substitute, swap two neighbours) from one name to another. */
function editDistance(from: string, to: string): number {
  const rows = Array.from({ length: from.length + 1 }, (_, row) => Array.from({ length: to.length + 1 }, (_, column) => (row === 0 ? column : column === 0 ? row : 0)));
  for (let row = 1; row <= from.length; row += 1) {
    for (let column = 1; column <= to.length; column += 1) {
      const substitution = from[row - 1] === to[column - 1] ? 0 : 1;
      rows[row][column] = Math.min(rows[row - 1][column] + 1, rows[row][column - 1] + 1, rows[row - 1][column - 1] + substitution);
      if (row > 1 && column > 1 && from[row - 1] === to[column - 2] && from[row - 2] === to[column - 1]) {
        rows[row][column] = Math.min(rows[row][column], rows[row - 2][column - 2] + 1);
      }
    }
  }
  return rows[from.length][to.length];
}

/**
 * The known field (or query parameter) closest to an unknown one, when close enough to be a typo
 * (at most a third of its letters off): `custmer_id` → `customer_id`, `qty` → nothing.
 */
export function nearestKnownField(target: object | undefined, unknown: string): string | null {
  if (!target) return null;
  const known = new Set(getMetadataStorage().getTargetValidationMetadatas(target.constructor, '', true, false).map((metadata) => metadata.propertyName));
  let best: { name: string; distance: number } | null = null;
  for (const name of known) {
    const distance = editDistance(unknown.toLowerCase(), name.toLowerCase());
    if (distance <= Math.max(1, Math.floor(name.length / 3)) && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name ?? null;
}

/** Rules that check a value's JSON type; their message names the type expected. */
const TYPE_RULES = new Set(['isInt', 'isNumber', 'isString', 'isBoolean', 'isArray', 'isObject']);

/**
 * The message to show: a value of the wrong JSON type fails its range and length rules too, and
 * "file_size is too large" for "3587" would mislead; the type rule's message says what is expected.
 */
function leadingRule(constraintNames: string[]): string {
  return constraintNames.find((name) => TYPE_RULES.has(name)) ?? constraintNames[0];
}

/**
 * Maps class-validator failures onto the catalogue: an unknown field or a bad value is
 * INVALID_PARAMETER, an absent required one MISSING_REQUIRED_FIELD. A decorator may override the
 * code through `context: { errorCode }` (the upload-url fields use that, as the reference asks).
 */
export function validationExceptionFactory(errors: ValidationError[]): ApiError {
  const [first] = flatten(errors);
  if (!first) return new ApiError(ErrorCode.INVALID_PARAMETER, 'The request is invalid');
  const constraintNames = Object.keys(first.constraints);
  if (constraintNames.includes('whitelistValidation')) {
    const suggestion = nearestKnownField(first.target, first.property);
    const hint = suggestion ? `; did you mean '${suggestion}'?` : '';
    return new ApiError(ErrorCode.INVALID_PARAMETER, `Unknown field '${first.path}'${hint}`, first.path);
  }
  const contextCode = constraintNames.map((name) => first.contexts[name]?.errorCode).find(Boolean);
  const message = first.constraints[leadingRule(constraintNames)];
  if (first.value === undefined || first.value === null) {
    const required = constraintNames.includes('isDefined') || constraintNames.includes('isNotEmpty');
    if (required && first.value === null && isOptionalField(first.target, first.property)) {
      // An optional field sent as null is present and invalid, not missing.
      const rule = constraintNames.find((name) => name !== 'isDefined' && name !== 'isNotEmpty') ?? constraintNames[0];
      return new ApiError(contextCode ?? ErrorCode.INVALID_PARAMETER, `Invalid '${first.path}': ${first.constraints[rule]}`, first.path);
    }
    if (required) {
      return new ApiError(contextCode ?? ErrorCode.MISSING_REQUIRED_FIELD, `Missing required field '${first.path}'`, first.path);
    }
  }
  return new ApiError(contextCode ?? ErrorCode.INVALID_PARAMETER, `Invalid '${first.path}': ${message}`, first.path);
}

/**
 * Nest's ValidationPipe with the input rules around it, for bodies and queries:
 * - before: `__proto__`/`constructor`/`prototype` field names are refused as unknown fields
 *   (Nest would delete them silently), except inside `metadata`, where they are the client's data
 *   and are kept: metadata objects pass validation as stand-ins (FreeFormStandIn) that neither
 *   class-transformer nor stripProtoKeys walks into;
 * - after the DTO's own rules (so a route's own code wins, e.g. MISSING_REQUIRED_FIELD for an
 *   invalid file_name on upload-url): text PostgreSQL cannot store is refused, naming the field.
 * A DTO marked @ParsedByOwnPipe() is left to its route's pipe, which applies the same rules.
 */
export class ApiValidationPipe extends ValidationPipe {
  constructor() {
    super({
      ...UNKNOWN_FIELD_OPTIONS,
      transform: true,
      // The factory reads the target's class to tell an optional field from a required one; it
      // never sends the errors themselves, so the target is not repeated into any response.
      validationError: { target: true },
      exceptionFactory: validationExceptionFactory,
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const checked = metadata.type === 'body' || metadata.type === 'query';
    if (!checked) return super.transform(value, metadata);
    if (isParsedByOwnPipe(metadata.metatype)) return value;
    refusePrototypeKeys(value);
    wrapFreeForm(value);
    let result: unknown;
    try {
      result = await super.transform(value, metadata);
    } finally {
      unwrapFreeForm(value);
    }
    unwrapFreeForm(result);
    refuseUnstorableText(value);
    return result;
  }

  /**
   * Nothing to strip: refusePrototypeKeys has refused those keys outside `metadata` (bodies and
   * queries are the only values validated here; params are strings), and inside it they stay.
   */
  protected override stripProtoKeys(): void {}
}

export function createValidationPipe(): ValidationPipe {
  return new ApiValidationPipe();
}
