/*
 * Every bound on an input, defined once: validation, the request gate and the OpenAPI document
 * all read them from here, so what is refused and what is documented can't drift apart.
 */

/** An Idempotency-Key header or `idempotency_key` field: 1 to 255 characters (DESIGN §4). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/**
 * A store's id (product, variant, customer, order, line item, subscription), and any of our ids a
 * body or query names (typeids of at most 31 characters, well within it): 1 to 255 characters.
 */
export const STORE_ID_MAX_LENGTH = 255;

/**
 * An ISO 8601 date-time in a body, query or import row. The longest useful one
 * (`2027-01-15T10:30:00.123456789+05:30`) has 35 characters; ISO 8601 itself sets no bound on a
 * fraction's digits.
 */
export const TIMESTAMP_MAX_LENGTH = 64;
