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
 * Whether `error`, or a cause inside the wrappers drivers and ORMs put around it (TypeORM's
 * `driverError`, `cause`, an AggregateError's `errors`), matches. Knows no HTTP adapter and no
 * ORM class, only the shapes of their errors.
 */
function somewhereIn(error: unknown, test: (error: object) => boolean, depth = 0): boolean {
  if (error === null || typeof error !== 'object' || depth > MAX_DEPTH) return false;
  if (test(error)) return true;
  const { driverError, cause, errors } = error as { driverError?: unknown; cause?: unknown; errors?: unknown };
  if (somewhereIn(driverError, test, depth + 1) || somewhereIn(cause, test, depth + 1)) return true;
  return Array.isArray(errors) && errors.some((inner) => somewhereIn(inner, test, depth + 1));
}

/**
 * True when `error` says the database is unreachable, restarting, or too busy to answer now: the
 * client should retry later (503), unlike a bug (500).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return somewhereIn(error, matches);
}

/** deadlock_detected and serialization_failure: the transaction lost a race, and may simply run again. */
const CONFLICT_SQLSTATES = new Set(['40P01', '40001']);

/** True when `error` is a deadlock or a serialization failure (DESIGN §13), which UnitOfWork retries. */
export function isTransactionConflict(error: unknown): boolean {
  return somewhereIn(error, (candidate) => {
    const { code } = candidate as { code?: unknown };
    return typeof code === 'string' && CONFLICT_SQLSTATES.has(code);
  });
}

/** What a client waits before retrying a request whose transaction kept losing races. */
export const CONFLICT_RETRY_AFTER_SECONDS = 1;

/** The catalogue error once UnitOfWork's retries are spent: 503 SERVICE_UNAVAILABLE with Retry-After, never a 500. */
export function transactionConflictError(attempts: number): ApiError {
  return new ApiError(
    ErrorCode.SERVICE_UNAVAILABLE,
    `The request kept conflicting with concurrent requests (${attempts} attempts); retry after ${CONFLICT_RETRY_AFTER_SECONDS} second`,
    undefined,
    { 'Retry-After': String(CONFLICT_RETRY_AFTER_SECONDS) },
  );
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
