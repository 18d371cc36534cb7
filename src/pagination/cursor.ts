import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';

/**
 * Keyset position: the sort value and id of the last row of a page, newest first.
 * Opaque to clients: base64url JSON plus an HMAC of a server secret, so a cursor the API did not
 * issue (an edited or forged one) is refused, never read.
 */
export interface CursorPosition {
  /** ISO timestamp of the last row's sort column. */
  at: string;
  id: string;
}

const VERSION = 2;
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MAX_ID_LENGTH = 64;
const MAC_LENGTH = 16;

/**
 * The signing key: CURSOR_SECRET or a secret generated into DATA_DIR (CursorSecretInitializer
 * sets it at start). Until then a random per-process key, so nothing ever signs with a known key.
 */
let signingKey: Buffer = randomBytes(32);

export function useCursorSecret(secret: Buffer): void {
  signingKey = secret;
}

function mac(payload: string): Buffer {
  return createHmac('sha256', signingKey).update(`cursor:v${VERSION}:${payload}`).digest().subarray(0, MAC_LENGTH);
}

export function encodeCursor(position: CursorPosition): string {
  const payload = Buffer.from(JSON.stringify([VERSION, position.at, position.id])).toString('base64url');
  return `${payload}.${mac(payload).toString('base64url')}`;
}

/** An ISO timestamp exactly as encodeCursor writes it, naming a real instant (no 2024-02-30, no year 0000). */
function isCursorTimestamp(value: unknown): value is string {
  if (typeof value !== 'string' || !ISO_TIMESTAMP.test(value)) return false;
  const milliseconds = Date.parse(value);
  if (Number.isNaN(milliseconds)) return false;
  const date = new Date(milliseconds);
  return date.getUTCFullYear() >= 1 && date.toISOString() === value;
}

export function decodeCursor(cursor: string): CursorPosition {
  const invalid = () => new ApiError(ErrorCode.INVALID_PARAMETER, 'The cursor is malformed or was altered', 'cursor');
  const [payload, signature, ...rest] = cursor.split('.');
  if (!payload || !signature || rest.length > 0) throw invalid();
  // Compared as text: base64url decoding ignores the spare bits of the last character, so two
  // spellings of one MAC would otherwise both pass.
  const given = Buffer.from(signature, 'utf8');
  const expected = Buffer.from(mac(payload).toString('base64url'), 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  // Signed, so written by encodeCursor; checked anyway, as anything else would reach SQL.
  if (
    !Array.isArray(decoded) ||
    decoded.length !== 3 ||
    decoded[0] !== VERSION ||
    !isCursorTimestamp(decoded[1]) ||
    typeof decoded[2] !== 'string' ||
    decoded[2].length > MAX_ID_LENGTH
  ) {
    throw invalid();
  }
  return { at: decoded[1], id: decoded[2] };
}
