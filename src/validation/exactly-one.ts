import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';

/** The field that named the thing, and its value. */
export interface OneOf<Field extends string> {
  field: Field;
  value: string;
}

/** Present means a non-empty value: `?customer_id=` counts as absent. */
const present = (value: string | null | undefined): value is string => value !== undefined && value !== null && value !== '';

function quoted(fields: readonly string[], last: 'and' | 'or'): string {
  const names = fields.map((field) => `'${field}'`);
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} ${last} ${names[names.length - 1]}`;
}

/**
 * At most one of the fields that name one thing (an id, a store id, a variant id); null when none
 * is given, for the caller that allows that. Two or more are 400 MISSING_REQUIRED_FIELD naming the
 * second (`prefix` places the fields in the body, e.g. `line_items[0].`): on every route, neither
 * and both are the same mistake with one code (DESIGN §5 names it on the check), so a client
 * handles it once.
 */
export function atMostOne<Field extends string>(fields: Readonly<Record<Field, string | null | undefined>>, prefix = ''): OneOf<Field> | null {
  const names = Object.keys(fields) as Field[];
  const given = names.filter((field) => present(fields[field]));
  if (given.length > 1) {
    throw new ApiError(ErrorCode.MISSING_REQUIRED_FIELD, `Pass exactly one of ${quoted(names.map((name) => prefix + name), 'and')}, not ${names.length === 2 ? 'both' : 'several'}`, prefix + given[1]);
  }
  const [field] = given;
  return field === undefined ? null : { field, value: fields[field] as string };
}

/** Exactly one of the fields that name one thing: none or several are 400 MISSING_REQUIRED_FIELD. */
export function exactlyOne<Field extends string>(fields: Readonly<Record<Field, string | null | undefined>>, prefix = ''): OneOf<Field> {
  const one = atMostOne(fields, prefix);
  if (one) return one;
  const names = Object.keys(fields) as Field[];
  throw new ApiError(ErrorCode.MISSING_REQUIRED_FIELD, `Pass one of ${quoted(names.map((name) => prefix + name), 'or')}`, prefix + names[0]);
}
