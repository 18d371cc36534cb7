import { ApiParam } from '@nestjs/swagger';
import { IdPrefix, idLength, idPattern } from '../ids/id';
import { STORE_ID_MAX_LENGTH } from '../validation/input-bounds';

/** A route whose answer gives the id: `'GET /v1/products'` (its `id`, or each item's) or `['GET /v1/entitlements', 'customer_id']`. */
export type IdSource = string | [route: string, field: string];

function sourceList(sources: IdSource[]): string {
  const phrases = sources.map((source) => (typeof source === 'string' ? `\`${source}\`` : `\`${source[0]}\` (its \`${source[1]}\`)`));
  return phrases.length > 1 ? `${phrases.slice(0, -1).join(', ')} or ${phrases[phrases.length - 1]}` : phrases[0];
}

/**
 * A path parameter holding one of our ids, with its exact form (what isValidId accepts; anything
 * else is a 404) and the routes whose answers give one. No example: Swagger UI pre-fills examples
 * into "Try it out", and an id printed in the docs names nothing of the reader's.
 */
export function ApiIdParam(name: string, prefix: IdPrefix, what: string, returnedBy: IdSource[]): MethodDecorator {
  return ApiParam({
    name,
    required: true,
    description: `${what} id (\`${prefix}_…\`), from the answer of ${sourceList(returnedBy)}`,
    schema: { type: 'string', pattern: idPattern(prefix), minLength: idLength(prefix), maxLength: idLength(prefix) },
  });
}

/**
 * A path parameter holding a store's id (the merchant's own, so a document may show one): the
 * example is one the demo catalogue or an earlier example of the document creates.
 */
export function ApiStoreIdParam(name: string, description: string, example: string): MethodDecorator {
  return ApiParam({ name, required: true, description, schema: { type: 'string', minLength: 1, maxLength: STORE_ID_MAX_LENGTH, example } });
}
