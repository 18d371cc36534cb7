import { Client } from 'pg';

/** How long the CLI waits for PostgreSQL to accept a connection before saying it can't be reached. */
export const CLI_CONNECT_TIMEOUT_MILLISECONDS = 3_000;

/** The database did not accept a connection: printed as DATABASE_UNREACHABLE (exit code 1). */
export class DatabaseUnreachableError extends Error {
  readonly code = 'DATABASE_UNREACHABLE';
}

/** Where a URL points, without its credentials: `host:port/database`. */
export function databaseLocation(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return 'DATABASE_URL (not a URL)';
  }
}

function reasonOf(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  if (/timeout/i.test(text)) return `no answer within ${CLI_CONNECT_TIMEOUT_MILLISECONDS / 1000} s`;
  if (code === 'ECONNREFUSED') return 'connection refused';
  return typeof code === 'string' && !text.includes(code) ? `${text} (${code})` : text;
}

/** The CLI's error for a database it could not reach, saying where and why. */
export function databaseUnreachable(url: string, error: unknown): DatabaseUnreachableError {
  return new DatabaseUnreachableError(
    `Cannot reach the database at ${databaseLocation(url)}: ${reasonOf(error)}. Is PostgreSQL running there, and is DATABASE_URL right?`,
    { cause: error },
  );
}

/**
 * One connection to DATABASE_URL, made before Nest and TypeORM load (seconds of work): a database
 * that refuses, doesn't answer or rejects the credentials is reported at once, instead of after the
 * boot and its retries.
 */
export async function probeDatabase(url: string): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: CLI_CONNECT_TIMEOUT_MILLISECONDS });
  // A connection dropped after the probe must not end the process with an unhandled 'error'.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error: unknown) {
    throw databaseUnreachable(url, error);
  } finally {
    await client.end().catch(() => undefined);
  }
}
