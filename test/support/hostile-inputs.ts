import fc from 'fast-check';
import type { ApiOperation, JsonSchema, OperationParameter } from './openapi-operations';

/**
 * fast-check arbitraries for hostile HTTP inputs, derived from an operation of the OpenAPI
 * document. Every request for a state-changing operation carries at least one element the API
 * must refuse (see `FuzzRequest.refusedBecause`), so no generated request may change stored data.
 */

export type FuzzBody =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; contentType: string; text: string };

export interface FuzzRequest {
  /** Path parameter values, already percent-encoded (some deliberately malformed). */
  path: Record<string, string>;
  /** Query string pairs, already percent-encoded. */
  query: Array<[string, string]>;
  headers: Record<string, string>;
  body: FuzzBody;
  /** Why the API must refuse this request; null when it may be valid (reads only). */
  refusedBecause: string | null;
}

const SQL_STRINGS = [
  "' OR '1'='1",
  "'; DROP TABLE entitlements; --",
  '" OR ""="',
  "1' UNION SELECT key_hash FROM api_keys --",
  "x'); DELETE FROM products; --",
  '1; SELECT pg_sleep(0)--',
  "admin'--",
  '$1',
  '%',
  '_',
  '\\',
];
const TRAVERSAL_STRINGS = [
  '../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '/etc/passwd',
  '....//....//etc/passwd',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  'file:///etc/passwd',
  '..%00/',
  '/storage/../../data',
];
const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u202eevil',
  '\ufeff',
  '\ud800',
  '\udfff\ud800',
  '🙂',
  '𝕳𝖊𝖑𝖑𝖔',
  'ﷺ',
  'e\u0301\u0301\u0301',
  '\r\nX-Injected: 1',
  '<script>alert(1)</script>',
  '${jndi:ldap://127.0.0.1/a}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e309',
  'true',
  '[]',
  '{}',
];

export const nastyString: fc.Arbitrary<string> = fc.constantFrom(...SQL_STRINGS, ...TRAVERSAL_STRINGS, ...ODD_STRINGS);

/** Strings up to ~100 KB (as UTF-8), so one body stays under the 1 MiB limit most of the time. */
const hugeString: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('A', 'é', '🙂', '\u0000', "'", '\\', '%'), fc.integer({ min: 256, max: 25_000 }))
  .map(([unit, count]) => unit.repeat(count));

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: nastyString, weight: 4 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }), weight: 1 },
  { arbitrary: fc.tuple(nastyString, fc.string({ unit: 'binary', maxLength: 10 })).map(([left, right]) => `${left}${right}`), weight: 1 },
  { arbitrary: hugeString, weight: 1 },
  // PostgreSQL text cannot hold NUL: the classic 500.
  { arbitrary: fc.tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 })).map(([left, right]) => `${left}\u0000${right}`), weight: 2 },
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(-1, 0, -0, 0.5, 1.5, -1e308, 1e308, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 5e-324, 1e21),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

const deeplyNested = fc.integer({ min: 50, max: 300 }).map((depth) => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) as unknown);

const scalar: fc.Arbitrary<unknown> = fc.oneof(hostileString, hostileNumber, fc.boolean(), fc.constant(null));

/** Any JSON value a client could send, weighted towards the nasty. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: scalar, weight: 6 },
  { arbitrary: fc.array(scalar, { maxLength: 5 }), weight: 1 },
  { arbitrary: fc.dictionary(hostileString.filter((key) => key.length < 100), scalar, { maxKeys: 3 }), weight: 1 },
  { arbitrary: deeplyNested, weight: 1 },
);

/** Values of a JSON type the schema does not allow (never null: optional fields accept null). */
function wrongTypeFor(schema: JsonSchema): fc.Arbitrary<unknown> | null {
  const notString = fc.oneof(hostileNumber, fc.boolean(), fc.array(scalar, { maxLength: 3 }), fc.constant({ nested: 'object' }));
  switch (schema.type) {
    case 'string':
      return schema.enum
        ? fc.oneof(notString, hostileString.filter((value) => !schema.enum?.includes(value)).map((value) => `zz_not_in_enum_${value}`))
        : notString;
    case 'number':
    case 'integer':
      return fc.oneof(hostileString, fc.boolean(), fc.array(hostileNumber, { maxLength: 3 }), fc.constant({ value: 1 }));
    case 'boolean':
      return fc.oneof(hostileString, hostileNumber, fc.constant([true]), fc.constant({ value: true }));
    case 'array':
      return fc.oneof(hostileString, hostileNumber, fc.boolean(), fc.constant({ '0': 'x' }));
    case 'object':
      return fc.oneof(hostileString, hostileNumber, fc.boolean(), fc.array(scalar, { maxLength: 3 }));
    default:
      return null;
  }
}

/** A value for a field: its example, an allowed enum value, a same-type hostile value, or anything. */
function fieldValue(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const options: Array<fc.Arbitrary<unknown>> = [hostileValue];
  if (schema.example !== undefined) options.push(fc.constant(schema.example));
  if (schema.enum && schema.enum.length > 0) options.push(fc.constantFrom(...schema.enum));
  if (schema.type === 'string') options.push(hostileString);
  if (schema.type === 'number' || schema.type === 'integer') options.push(hostileNumber);
  if (schema.type === 'array') options.push(fc.array(schema.items ? fieldValue(schema.items, depth + 1) : hostileValue, { maxLength: 4 }));
  if (schema.type === 'object' && schema.properties && depth < 3) options.push(objectFor(schema, depth + 1));
  return fc.oneof(...options);
}

const OMIT = Symbol('omit');

/** An object with any subset of the schema's properties, each filled by `fieldValue`. */
function objectFor(schema: JsonSchema, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const entries = Object.entries(schema.properties ?? {});
  if (entries.length === 0) return fc.dictionary(hostileString.filter((key) => key.length < 50), scalar, { maxKeys: 2 });
  return fc
    .tuple(...entries.map(([, property]) => fc.option(fieldValue(property, depth), { nil: OMIT, freq: 2 })))
    .map((values) => {
      const result: Record<string, unknown> = {};
      entries.forEach(([name], index) => {
        if (values[index] !== OMIT) result[name] = values[index];
      });
      return result;
    });
}

const BAD_JSON_TEXTS = [
  '{',
  '{"name":',
  "{'name': 'x'}",
  '{"name": "x",}',
  '[1, 2',
  'nul',
  '{"a": "\\x"}',
  '{"a": 1}garbage',
  'NaN',
  '{"a": undefined}',
  '123',
  '"just a string"',
  '\u0000',
  '{"a": "\u0000',
  '<xml/>',
];

const badJson: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...BAD_JSON_TEXTS),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 60 }).filter((text) => {
    if (text.trim().length === 0) return false;
    try {
      const parsed: unknown = JSON.parse(text);
      return typeof parsed !== 'object';
    } catch {
      return true;
    }
  }),
);

const WRONG_CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=fuzz',
  'application/xml',
  'application/merge-patch+json',
  'application/json; charset=utf-16',
  'application/octet-stream',
];

/** Percent-encodes the UTF-8 bytes of any string (lone surrogates included, as U+FFFD). */
export function percentEncode(value: string): string {
  return [...Buffer.from(value, 'utf8')]
    .map((byte) => {
      const character = String.fromCharCode(byte);
      return /[A-Za-z0-9\-_~]/.test(character) ? character : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
}

/**
 * URLs stay under Node's 16 KB header limit: past it Node itself answers 431 with no body, before
 * the application sees the request (huge values are fuzzed in bodies, up to ~100 KB).
 */
const MAX_ENCODED_VALUE = 2000;
const MAX_QUERY_LENGTH = 8000;

/** Encoded segments that are malformed on purpose: bad percent escapes, invalid UTF-8. */
const MALFORMED_ENCODINGS = ['%', '%zz', '%E0%A4%A', '%FF', '%C0%AF', '%00', 'ent_%ZZ', '%25%', 'a%2Fb', '%2e%2e'];

/** Prefixes of the id scheme, to make ids that look right but belong to another kind or to nobody. */
const ID_PREFIXES = ['mer', 'key', 'cus', 'prod', 'ent', 'file', 'dl', 'evt', 'we', 'wd'];

const idLike: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(fc.constantFrom(...ID_PREFIXES), fc.string({ unit: 'grapheme-ascii', maxLength: 30 })).map(([prefix, rest]) => `${prefix}_${rest}`),
  fc.tuple(fc.constantFrom(...ID_PREFIXES), fc.stringMatching(/^[0-7][0-9a-hjkmnp-tv-z]{25}$/)).map(([prefix, suffix]) => `${prefix}_${suffix}`),
  fc.constantFrom('ent_', 'prod_00000000000000000000000000', 'ent_01jd8x3k2m4n5p6q7r8s9t0v1w', 'x'.repeat(300)),
);

/**
 * Segments longer than any id: the router must not fail on them (Fastify's maxParamLength once
 * made them a 5xx); they name nothing, so 404 with or without a key.
 */
const OVERLONG_SEGMENTS = ['x'.repeat(4096), `ent_${'0'.repeat(4092)}`, percentEncode('é'.repeat(300))];

/** A path segment nobody owns; dot-only segments are left out because clients normalise them away. */
export const hostilePathSegment: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: idLike.map(percentEncode), weight: 3 },
  { arbitrary: fc.constantFrom(...OVERLONG_SEGMENTS), weight: 1 },
  { arbitrary: hostileString.filter((value) => value.length > 0).map(percentEncode).filter((value) => value.length <= MAX_ENCODED_VALUE), weight: 3 },
  { arbitrary: fc.constantFrom(...MALFORMED_ENCODINGS), weight: 2 },
).filter((segment) => segment.length > 0 && !/^\.+$/.test(segment));

const INVALID_LIMITS = ['0', '-1', '101', '1000000000000000000000', 'abc', '1.5', '-0.5', 'NaN', 'Infinity', '%00'];

function queryValue(parameter: OperationParameter): fc.Arbitrary<string> {
  const options: Array<fc.Arbitrary<string>> = [
    hostileString.map(percentEncode).filter((value) => value.length <= MAX_ENCODED_VALUE),
    hostileNumber.map((value) => percentEncode(String(value))),
    idLike.map(percentEncode),
  ];
  if (parameter.schema.example !== undefined) options.push(fc.constant(percentEncode(String(parameter.schema.example))));
  if (parameter.schema.enum) options.push(fc.constantFrom(...parameter.schema.enum.map((value) => percentEncode(String(value)))));
  options.push(fc.constantFrom(...MALFORMED_ENCODINGS));
  return fc.oneof(...options);
}

/**
 * A valid body (the seed) with one field replaced by a hostile value of the field's own type, so
 * NUL bytes, odd unicode, huge strings and extreme numbers reach the services and the database.
 */
function nearlyValidBody(schema: JsonSchema, seed: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const replacements: Array<fc.Arbitrary<[string, unknown]>> = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    let value: fc.Arbitrary<unknown> | null = null;
    if (property.type === 'string' && !property.enum) value = hostileString;
    else if (property.type === 'number' || property.type === 'integer') value = hostileNumber;
    else if (property.type === 'array' && property.items?.type === 'string' && !property.items.enum) value = fc.array(hostileString, { maxLength: 4 });
    else if (property.type === 'object' && !property.properties) value = fc.dictionary(hostileString.filter((key) => key.length < 200), hostileValue, { maxKeys: 4 });
    if (value) replacements.push(value.map((replacement): [string, unknown] => [name, replacement]));
  }
  if (replacements.length === 0) return fc.constant(seed);
  return fc.oneof(...replacements).map(([name, value]) => ({ ...seed, [name]: value }));
}

/** What the request carries that the API must refuse. */
type Defect =
  | { kind: 'path' }
  | { kind: 'unknown-field'; name: string; value: unknown }
  | { kind: 'wrong-type'; field: string; value: unknown }
  | { kind: 'missing-required'; field: string }
  | { kind: 'bad-json'; text: string }
  | { kind: 'wrong-content-type'; contentType: string; text: string }
  | { kind: 'not-an-object'; text: string }
  | { kind: 'bad-limit'; value: string }
  | { kind: 'bad-cursor'; value: string }
  | { kind: 'bad-idempotency-key'; value: string }
  | { kind: 'none' };

function defects(operation: ApiOperation, mustRefuse: boolean): fc.Arbitrary<Defect> {
  const options: Array<fc.Arbitrary<Defect>> = [];
  if (operation.pathParameters.length > 0) options.push(fc.constant<Defect>({ kind: 'path' }));
  const properties = Object.entries(operation.body?.properties ?? {});
  if (operation.body) {
    const unknownName = fc.oneof(fc.constant('zz_unknown_field'), hostileString.filter((name) => name.length < 200).map((name) => `zz_${name}`));
    options.push(fc.record({ kind: fc.constant('unknown-field' as const), name: unknownName, value: hostileValue }));
    const typed = properties.filter(([, schema]) => wrongTypeFor(schema) !== null);
    if (typed.length > 0) {
      options.push(
        fc.constantFrom(...typed).chain(([field, schema]) =>
          (wrongTypeFor(schema) as fc.Arbitrary<unknown>).map((value): Defect => ({ kind: 'wrong-type', field, value })),
        ),
      );
    }
    const required = operation.body.required ?? [];
    if (required.length > 0) options.push(fc.constantFrom(...required).map((field): Defect => ({ kind: 'missing-required', field })));
  }
  options.push(badJson.map((text): Defect => ({ kind: 'bad-json', text })));
  options.push(
    fc
      .tuple(fc.constantFrom(...WRONG_CONTENT_TYPES), fc.oneof(fc.constant('{"name":"x"}'), hostileString.filter((text) => text.length > 0)))
      .map(([contentType, text]): Defect => ({ kind: 'wrong-content-type', contentType, text })),
  );
  options.push(fc.constantFrom('[]', '[{"name":"x"}]', '[null]', '[[]]').map((text): Defect => ({ kind: 'not-an-object', text })));
  const queryNames = operation.queryParameters.map((parameter) => parameter.name);
  if (queryNames.includes('limit')) options.push(fc.constantFrom(...INVALID_LIMITS).map((value): Defect => ({ kind: 'bad-limit', value })));
  if (queryNames.includes('cursor')) {
    const cursor = fc
      .oneof(hostileString, idLike, fc.base64String({ minLength: 4, maxLength: 200 }))
      .filter((value) => value.trim().length > 0)
      .map(percentEncode)
      .filter((value) => value.length <= MAX_ENCODED_VALUE);
    options.push(cursor.map((value): Defect => ({ kind: 'bad-cursor', value })));
  }
  // The license routes of apps take no Idempotency-Key (no API key, so no idempotency: DESIGN §18); they ignore the header.
  if (operation.method === 'post' && operation.template.startsWith('/v1/') && !operation.template.startsWith('/v1/licenses/')) {
    options.push(fc.integer({ min: 256, max: 2000 }).map((length): Defect => ({ kind: 'bad-idempotency-key', value: 'k'.repeat(length) })));
  }
  if (mustRefuse) return fc.oneof(...options);
  // Input that may be valid half the time, so hostile values reach the services and the database.
  return fc.oneof({ arbitrary: fc.oneof(...options), weight: 1 }, { arbitrary: fc.constant<Defect>({ kind: 'none' }), weight: 1 });
}

function describeDefect(defect: Defect): string | null {
  switch (defect.kind) {
    case 'none':
      return null;
    case 'path':
      return 'a path parameter is malformed or unknown';
    case 'unknown-field':
      return `unknown body field ${JSON.stringify(defect.name.slice(0, 60))}`;
    case 'wrong-type':
      return `body field ${defect.field} has the wrong type`;
    case 'missing-required':
      return `required body field ${defect.field} is missing`;
    case 'bad-json':
      return 'the body is not valid JSON';
    case 'wrong-content-type':
      return `the body is sent as ${defect.contentType}`;
    case 'not-an-object':
      return 'the body is a JSON array';
    case 'bad-limit':
      return `limit=${defect.value}`;
    case 'bad-cursor':
      return 'the cursor is not one the API issued';
    case 'bad-idempotency-key':
      return `Idempotency-Key of ${defect.value.length} characters`;
  }
}

/**
 * Hostile requests for one operation. `realIds` maps path parameter names to ids the merchant
 * owns, so body and query checks are reached on real resources too. With `mustRefuse` (every
 * state-changing operation) each request carries a defect the API must refuse.
 */
export function hostileRequests(
  operation: ApiOperation,
  realIds: Record<string, string>,
  mustRefuse: boolean,
  seedBody?: Record<string, unknown>,
  seedQuery?: Record<string, string>,
): fc.Arbitrary<FuzzRequest> {
  const pathNames = operation.pathParameters.map((parameter) => parameter.name);
  const realOrHostile = (name: string) =>
    realIds[name] !== undefined ? fc.oneof(fc.constant(percentEncode(realIds[name])), hostilePathSegment) : hostilePathSegment;
  const queryPairs = fc
    .tuple(
      ...operation.queryParameters.map((parameter) =>
        fc.option(
          fc.oneof(
            queryValue(parameter).map((value) => [[parameter.name, value]] as Array<[string, string]>),
            // The same name twice: the simple query parser makes an array of it.
            fc.tuple(queryValue(parameter), queryValue(parameter)).map(([first, second]) => [[parameter.name, first], [parameter.name, second]] as Array<[string, string]>),
          ),
          { nil: [] as Array<[string, string]>, freq: 2 },
        ),
      ),
    )
    .map((groups) => groups.flat());
  // A valid query (the seed) with one parameter spoiled or dropped, so hostile values reach the
  // services past the rules that combine parameters (exactly one customer and one product...).
  const nearlyValidQuery =
    seedQuery && operation.queryParameters.length > 0
      ? fc.tuple(fc.constantFrom(...operation.queryParameters), fc.integer({ min: 0, max: 4 })).chain(([parameter, choice]) =>
          queryValue(parameter).map((value) => {
            const pairs = Object.entries(seedQuery)
              .filter(([name]) => name !== parameter.name)
              .map(([name, seedValue]): [string, string] => [name, percentEncode(seedValue)]);
            // One time in five the parameter is dropped rather than spoiled.
            if (choice > 0) pairs.push([parameter.name, value]);
            return pairs;
          }),
        )
      : null;
  const queries = nearlyValidQuery ? fc.oneof(queryPairs, nearlyValidQuery) : queryPairs;
  // An unknown query parameter, now and then (list queries refuse it, which would hide the rest).
  const extraQuery = fc.oneof(
    { arbitrary: fc.constant(null), weight: 5 },
    {
      arbitrary: fc
        .tuple(hostileString.filter((name) => name.length > 0 && name.length < 100), hostileString.filter((value) => value.length < 200))
        .map(([name, value]) => [`zz${percentEncode(name)}`, percentEncode(value)] as [string, string]),
      weight: 1,
    },
  );
  const bodyObject = operation.body
    ? fc.oneof(objectFor(operation.body), ...(seedBody ? [nearlyValidBody(operation.body, seedBody)] : []))
    : fc.constant<Record<string, unknown>>({});
  const idempotencyHeader = fc.option(fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 255 }).filter((value) => /^[\x21-\x7e]+$/.test(value)), { nil: null, freq: 3 });

  return fc
    .record({
      defect: defects(operation, mustRefuse),
      realPath: fc.tuple(...pathNames.map(realOrHostile)),
      hostilePath: fc.tuple(...pathNames.map(() => hostilePathSegment)),
      query: queries,
      extraQuery,
      bodyObject,
      sendBody: fc.boolean(),
      idempotencyKey: idempotencyHeader,
    })
    .map(({ defect, realPath, hostilePath, query, extraQuery: extra, bodyObject: object, sendBody, idempotencyKey }) => {
      const segments = defect.kind === 'path' ? hostilePath : realPath;
      const path = Object.fromEntries(pathNames.map((name, index) => [name, segments[index]]));
      const pathIsForeign = pathNames.some((name, index) => segments[index] !== percentEncode(realIds[name] ?? '\u0000none'));
      const pairs: Array<[string, string]> = query.filter(([name]) => !(defect.kind === 'bad-limit' && name === 'limit') && !(defect.kind === 'bad-cursor' && name === 'cursor'));
      if (defect.kind === 'bad-limit') pairs.push(['limit', defect.value]);
      if (defect.kind === 'bad-cursor') pairs.push(['cursor', defect.value]);
      if (extra) pairs.push(extra);
      // Keep the URL under the header limit, dropping the longest pairs that carry no defect.
      const length = () => pairs.reduce((total, [name, value]) => total + name.length + value.length + 2, 0);
      while (length() > MAX_QUERY_LENGTH) {
        const droppable = pairs
          .map((pair, index) => ({ index, size: pair[0].length + pair[1].length, isDefect: (defect.kind === 'bad-limit' && pair[0] === 'limit') || (defect.kind === 'bad-cursor' && pair[0] === 'cursor') }))
          .filter((candidate) => !candidate.isDefect)
          .sort((left, right) => right.size - left.size)[0];
        if (!droppable) break;
        pairs.splice(droppable.index, 1);
      }
      const headers: Record<string, string> = {};
      if (operation.method === 'post' && idempotencyKey !== null) headers['Idempotency-Key'] = idempotencyKey;
      if (defect.kind === 'bad-idempotency-key') headers['Idempotency-Key'] = defect.value;

      const body = { ...object };
      if (defect.kind === 'unknown-field') body[defect.name] = defect.value;
      if (defect.kind === 'wrong-type') body[defect.field] = defect.value;
      if (defect.kind === 'missing-required') delete body[defect.field];
      let fuzzBody: FuzzBody;
      if (defect.kind === 'bad-json') fuzzBody = { kind: 'raw', contentType: 'application/json', text: defect.text };
      else if (defect.kind === 'not-an-object') fuzzBody = { kind: 'raw', contentType: 'application/json', text: defect.text };
      else if (defect.kind === 'wrong-content-type') fuzzBody = { kind: 'raw', contentType: defect.contentType, text: defect.text };
      else if (operation.body && (sendBody || operation.bodyRequired || defect.kind !== 'none' || Object.keys(body).length > 0)) fuzzBody = { kind: 'json', value: body };
      else fuzzBody = { kind: 'none' };

      const reasons = [describeDefect(defect)];
      if (defect.kind !== 'path' && pathIsForeign) reasons.push('a path parameter is malformed or unknown');
      const refusedBecause = reasons.filter((reason): reason is string => reason !== null).join('; ') || null;
      return { path, query: pairs, headers, body: fuzzBody, refusedBecause };
    });
}
