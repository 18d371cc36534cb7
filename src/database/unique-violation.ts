import { QueryFailedError } from 'typeorm';

/** True when `error` is PostgreSQL's unique violation (23505) of the named index or constraint. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const driverError = error.driverError as { code?: string; constraint?: string } | undefined;
  return driverError?.code === '23505' && driverError.constraint === constraint;
}
