import { createHash } from 'node:crypto';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';

/**
 * Keyset position: the sort value and id of the last row of a page, newest first.
 * Opaque to clients: base64url JSON plus a checksum so an edited cursor is refused, not misread.
 */
export interface CursorPosition {
  /** ISO timestamp of the last row's sort column. */
  at: string;
  id: string;
}

const VERSION = 1;
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MAX_ID_LENGTH = 64;

function checksum(payload: string): string {
  return createHash('sha256').update(`cursor:v${VERSION}:${payload}`).digest('base64url').slice(0, 12);
}

export function encodeCursor(position: CursorPosition): string {
  const payload = Buffer.from(JSON.stringify([VERSION, position.at, position.id])).toString('base64url');
  return `${payload}.${checksum(payload)}`;
}

export function decodeCursor(cursor: string): CursorPosition {
  const invalid = () => new ApiError(ErrorCode.INVALID_PARAMETER, 'The cursor is malformed or was altered', 'cursor');
  const [payload, sum, ...rest] = cursor.split('.');
  if (!payload || !sum || rest.length > 0 || checksum(payload) !== sum) throw invalid();
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (
    !Array.isArray(decoded) ||
    decoded.length !== 3 ||
    decoded[0] !== VERSION ||
    typeof decoded[1] !== 'string' ||
    typeof decoded[2] !== 'string' ||
    // Exactly what encodeCursor writes: anything else would reach SQL as a value PostgreSQL may refuse (a 500).
    !ISO_TIMESTAMP.test(decoded[1]) ||
    Number.isNaN(Date.parse(decoded[1])) ||
    decoded[2].length > MAX_ID_LENGTH
  ) {
    throw invalid();
  }
  return { at: decoded[1], id: decoded[2] };
}
