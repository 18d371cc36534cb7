import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';

const REQUEST_ID = Symbol('requestId');
type WithRequestId = IncomingMessage & { [REQUEST_ID]?: string };

export function newRequestId(): string {
  return `req_${randomBytes(12).toString('base64url')}`;
}

/**
 * The request id, kept on the Node request so Fastify (`request.id`, from genReqId), the
 * X-Request-Id header, the envelope and the log lines all read the same value.
 */
export function requestIdOf(request: IncomingMessage | FastifyRequest): string {
  const raw = ('raw' in request ? request.raw : request) as WithRequestId;
  if (!raw[REQUEST_ID]) raw[REQUEST_ID] = newRequestId();
  return raw[REQUEST_ID];
}
