import { QueryFailedError, QueryRunnerAlreadyReleasedError, QueryRunnerProviderAlreadyReleasedError } from 'typeorm';
import { databaseUnavailableError, isDatabaseUnavailable, isTransactionConflict } from '../../src/errors/database-unavailable';

/** A node-postgres server error: an Error with the SQLSTATE in `code`. */
function serverError(code: string, message: string, severity = 'ERROR'): Error {
  return Object.assign(new Error(message), { code, severity });
}

function socketError(code: string): Error {
  return Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code, errno: -111, syscall: 'connect' });
}

describe('isDatabaseUnavailable', () => {
  it.each([
    ['57P01 admin_shutdown (pg_terminate_backend)', serverError('57P01', 'terminating connection due to administrator command')],
    ['57P02 crash_shutdown', serverError('57P02', 'terminating connection because of crash of another server process')],
    ['57P03 cannot_connect_now', serverError('57P03', 'the database system is starting up')],
    ['57014 statement timeout', serverError('57014', 'canceling statement due to statement timeout')],
    ['25P03 idle in transaction timeout', serverError('25P03', 'terminating connection due to idle-in-transaction timeout')],
    ['08006 connection_failure', serverError('08006', 'connection failure')],
    ['08P01 protocol_violation (class 08)', serverError('08P01', 'protocol violation')],
    ['53300 too_many_connections', serverError('53300', 'sorry, too many clients already')],
    ['any FATAL error: the session is gone', serverError('55000', 'database "x" is not currently accepting connections', 'FATAL')],
    ['ECONNREFUSED', socketError('ECONNREFUSED')],
    ['ECONNRESET', socketError('ECONNRESET')],
    ['EPIPE', socketError('EPIPE')],
    ['a lost connection', new Error('Connection terminated unexpectedly')],
    ['a connect timeout', new Error('Connection terminated due to connection timeout')],
    ["a Client's connect timeout", new Error('timeout expired')],
    ['the pool acquire timeout', new Error('timeout exceeded when trying to connect')],
    ['a dead client', new Error('Client has encountered a connection error and is not queryable')],
  ])('recognises %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('looks through TypeORM, cause and AggregateError wrappers', () => {
    const wrapped = new QueryFailedError('SELECT 1', [], serverError('57P01', 'terminating connection due to administrator command'));
    expect(isDatabaseUnavailable(wrapped)).toBe(true);
    expect(isDatabaseUnavailable(new Error('outer', { cause: socketError('ECONNRESET') }))).toBe(true);
    // A host name resolving to ::1 and 127.0.0.1 fails with one AggregateError of both.
    expect(isDatabaseUnavailable(new AggregateError([socketError('ECONNREFUSED'), socketError('ECONNREFUSED')], 'connect failed'))).toBe(true);
    // TypeORM's, when a connection's error released the transaction's query runner under it.
    expect(isDatabaseUnavailable(new QueryRunnerAlreadyReleasedError())).toBe(true);
    expect(isDatabaseUnavailable(new QueryRunnerProviderAlreadyReleasedError())).toBe(true);
  });

  it.each([
    ['a unique violation', new QueryFailedError('INSERT', [], serverError('23505', 'duplicate key value violates unique constraint'))],
    ['a syntax error', serverError('42601', 'syntax error at or near "SELEC"')],
    ['a deadlock', serverError('40P01', 'deadlock detected')],
    ['55000 as a plain ERROR', serverError('55000', 'currval of sequence "s" is not yet defined in this session')],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a non-error', 'Connection terminated'],
    ['null', null],
  ])('leaves %s to the 500 path', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it('stops at a depth limit on self-referencing causes', () => {
    const looping: Error & { cause?: unknown } = new Error('loop');
    looping.cause = looping;
    expect(isDatabaseUnavailable(looping)).toBe(false);
  });

  it('renders as 503 SERVICE_UNAVAILABLE, type api_error, with Retry-After', () => {
    const error = databaseUnavailableError();
    expect(error.status).toBe(503);
    expect(error.type).toBe('api_error');
    expect(error.renderedCode).toBe('SERVICE_UNAVAILABLE');
    expect(Number(error.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
  });
});

describe('isTransactionConflict', () => {
  it('recognises deadlocks and serialization failures, through TypeORM wrappers', () => {
    expect(isTransactionConflict(new QueryFailedError('UPDATE', [], serverError('40P01', 'deadlock detected')))).toBe(true);
    expect(isTransactionConflict(serverError('40001', 'could not serialize access due to concurrent update'))).toBe(true);
  });

  it('leaves every other error alone', () => {
    expect(isTransactionConflict(serverError('23505', 'duplicate key value violates unique constraint'))).toBe(false);
    expect(isTransactionConflict(serverError('57P01', 'terminating connection due to administrator command'))).toBe(false);
    expect(isTransactionConflict(new Error('deadlock detected'))).toBe(false);
  });
});
