/*
 * Every bound on an input, defined once: validation, the request gate and the OpenAPI document
 * all read them from here, so what is refused and what is documented can't drift apart.
 */

/** An Idempotency-Key header or `idempotency_key` field: 1 to 255 characters (DESIGN §4). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** A store's id (product, variant, customer, order, line item, subscription): 1 to 255 characters. */
export const STORE_ID_MAX_LENGTH = 255;
