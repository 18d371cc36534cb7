import { randomFillSync } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { HttpRequest, rawRequestOf } from '../exchange/http-exchange';

const REQUEST_ID = Symbol('requestId');
type WithRequestId = IncomingMessage & { [REQUEST_ID]?: string };

const ID_BYTES = 12;
const PREFIX = 'req_';
/** `req_` and 12 bytes in base64url (16 characters). */
export const REQUEST_ID_LENGTH = PREFIX.length + Math.ceil((ID_BYTES * 4) / 3);
/**
 * Random bytes for 256 ids, drawn from the CSPRNG at once: one randomBytes call per request cost
 * the access check 4% of its CPU (a system call each time).
 */
const pool = Buffer.alloc(ID_BYTES * 256);
let offset = pool.length;

export function newRequestId(): string {
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const id = `${PREFIX}${pool.toString('base64url', offset, offset + ID_BYTES)}`;
  offset += ID_BYTES;
  return id;
}

/**
 * The request id, kept on the Node request so the X-Request-Id header, the envelope, error
 * bodies and the log lines all read the same value, whichever adapter serves.
 */
export function requestIdOf(request: HttpRequest | IncomingMessage): string {
  const raw = rawRequestOf(request) as WithRequestId;
  if (!raw[REQUEST_ID]) raw[REQUEST_ID] = newRequestId();
  return raw[REQUEST_ID];
}
