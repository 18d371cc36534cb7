/*
 * Every bound on an input string, defined once: the DTOs' validators, the hand-written parsers
 * (the check's query, import rows), the request gate and the OpenAPI document (maxLength) all read
 * them from here, so what is refused and what is documented can't drift apart.
 */

/** Every store id (a customer's, product's, variant's, order's, line item's, subscription's): 1 to 255 characters. */
export const STORE_ID_MAX_LENGTH = 255;

/** One of our ids (`cus_…`, `prod_…`, `ent_…`) named in a body or a query: longer can name nothing (400). */
export const ID_MAX_LENGTH = 255;

/** An Idempotency-Key header or `idempotency_key` field: 1 to 255 characters (DESIGN §4). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/**
 * An ISO 8601 date-time in a body, query or import row. The longest useful one
 * (`2027-01-15T10:30:00.123456789+05:30`) has 35 characters; ISO 8601 itself sets no bound on a
 * fraction's digits.
 */
export const TIMESTAMP_MAX_LENGTH = 64;

/**
 * The largest usage limit a product, a grant, a reactivation, an update or an import row may set
 * (below the int4 column's bound, so uses can still be counted past a limit's change).
 */
export const USAGE_LIMIT_MAX = 2_000_000_000;
