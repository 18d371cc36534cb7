import { RATE_LIMIT_PER_MINUTE_MAX } from '../config/config.schema';
import { TENANT_RETRY_AFTER_SECONDS } from '../database/tenant-transaction-limiter';
import { CONFLICT_RETRY_AFTER_SECONDS, DATABASE_RETRY_AFTER_SECONDS } from '../errors/database-unavailable';
import { REQUEST_ID_LENGTH } from '../envelope/request-id';
import { RATE_LIMIT_WINDOW_SECONDS } from '../rate-limiting/rate-limit-window';

/*
 * The headers the service sets, with the ranges of the values it writes: each bound is the
 * constant the code that sets the header reads.
 */

/** Retry-After is a rate limit's window left (at most the window), or a fixed wait of a 503. */
const RETRY_AFTER_MAX_SECONDS = Math.max(RATE_LIMIT_WINDOW_SECONDS, DATABASE_RETRY_AFTER_SECONDS, CONFLICT_RETRY_AFTER_SECONDS, TENANT_RETRY_AFTER_SECONDS);

export const RETRY_AFTER_HEADER = {
  description: 'Seconds to wait before retrying',
  schema: { type: 'integer', format: 'int32', minimum: 1, maximum: RETRY_AFTER_MAX_SECONDS },
};

export const SHOULD_RETRY = {
  description: 'Whether the same request may succeed if sent again (idempotent calls only: the SDK retries on true)',
  schema: { type: 'string', enum: ['true', 'false'] },
};

export const REQUEST_ID_HEADER = {
  description: 'Request identifier, as meta.request_id',
  schema: { type: 'string', minLength: REQUEST_ID_LENGTH, maxLength: REQUEST_ID_LENGTH },
};

export const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': {
    description:
      "Requests allowed a minute for this key (read or write budget). Sent on every answer once the key is authenticated and has the route's scope, errors included; not on a 401, a 403 INSUFFICIENT_SCOPE or a 413 refused before that",
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: RATE_LIMIT_PER_MINUTE_MAX },
  },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer', format: 'int32', minimum: 0, maximum: RATE_LIMIT_PER_MINUTE_MAX } },
  'X-RateLimit-Reset': { description: 'Seconds until the window resets', schema: { type: 'integer', format: 'int32', minimum: 1, maximum: RATE_LIMIT_WINDOW_SECONDS } },
  'X-Request-Id': REQUEST_ID_HEADER,
};
