import { ApiError } from './api-error';
import { ErrorCode } from './error-code.enum';

/** Seconds a client should wait before retrying while the database is away: a restart or failover takes a few. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/** Socket errors of a connection that could not be made or was cut. */
const NETWORK_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs that mean "not now" rather than "never": the server is shutting down, restarting or
 * refusing connections (57P01-57P03), a statement ran past statement_timeout or was cancelled
 * (57014: the database is overloaded), an idle transaction was ended (25P03). Classes 08
 * (connection exception) and 53 (insufficient resources: too many connections, out of memory,
 * disk full) are matched by prefix below.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '57014', '25P03']);
const UNAVAILABLE_SQLSTATE_CLASSES = ['08', '53'];

/**
 * node-postgres and pg-pool report a lost connection, a connect that timed out (a Client's
 * "timeout expired") or a pool wait that timed out only by message.
 */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout expired',
  'timeout exceeded when trying to connect',
  'is not queryable',
];

/**
 * TypeORM's errors when a transaction's connection was released under it: its query runner is
 * released early only when the connection emitted an error (UnitOfWork owns the normal release).
 */
const UNAVAILABLE_ERROR_NAMES = new Set(['QueryRunnerAlreadyReleasedError', 'QueryRunnerProviderAlreadyReleasedError']);

const MAX_DEPTH = 5;

/**
 * A FATAL or PANIC server error ends the session: the server refused or dropped the connection
 * (a database not accepting connections, shutting down, out of slots). Whatever the SQLSTATE,
 * there is no connection to answer with until a new one can be made.
 */
const SESSION_ENDING_SEVERITIES = new Set(['FATAL', 'PANIC']);

function matches(error: object): boolean {
  const { code, message, name, severity } = error as { code?: unknown; message?: unknown; name?: unknown; severity?: unknown };
  if (typeof severity === 'string' && SESSION_ENDING_SEVERITIES.has(severity)) return true;
  if (typeof code === 'string') {
    if (NETWORK_ERROR_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code) && UNAVAILABLE_SQLSTATE_CLASSES.includes(code.slice(0, 2))) return true;
  }
  if (typeof name === 'string' && UNAVAILABLE_ERROR_NAMES.has(name)) return true;
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.some((fragment) => message.includes(fragment));
}

/**
 * True when `error` says the database is unreachable, restarting, or too busy to answer now: the
 * client should retry later (503), unlike a bug (500). Looks through the wrappers drivers and
 * ORMs put around the cause (TypeORM's `driverError`, `cause`, an AggregateError's `errors`).
 * Knows no HTTP adapter and no ORM class, only the shapes of their errors.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (error === null || typeof error !== 'object' || depth > MAX_DEPTH) return false;
  if (matches(error)) return true;
  const { driverError, cause, errors } = error as { driverError?: unknown; cause?: unknown; errors?: unknown };
  if (isDatabaseUnavailable(driverError, depth + 1) || isDatabaseUnavailable(cause, depth + 1)) return true;
  return Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1));
}

/** The catalogue error for it: 503 SERVICE_UNAVAILABLE with Retry-After. */
export function databaseUnavailableError(): ApiError {
  return new ApiError(
    ErrorCode.SERVICE_UNAVAILABLE,
    `The database is unavailable at the moment; retry after ${DATABASE_RETRY_AFTER_SECONDS} seconds`,
    undefined,
    { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
  );
}
