import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { HttpRequest, rawRequestOf } from '../exchange/http-exchange';

const REQUEST_ID = Symbol('requestId');
type WithRequestId = IncomingMessage & { [REQUEST_ID]?: string };

export function newRequestId(): string {
  return `req_${randomBytes(12).toString('base64url')}`;
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
