import { randomBytes } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

const REQUEST_ID = Symbol('requestId');
type WithRequestId = Request & { [REQUEST_ID]?: string };

export function newRequestId(): string {
  return `req_${randomBytes(12).toString('base64url')}`;
}

/** The request id: also pino's req.id and the X-Request-Id response header. */
export function requestIdOf(request: Request): string {
  const tagged = request as WithRequestId;
  if (!tagged[REQUEST_ID]) tagged[REQUEST_ID] = newRequestId();
  return tagged[REQUEST_ID];
}

/** First middleware: every response, success or error, carries X-Request-Id. */
export function requestIdMiddleware(request: Request, response: Response, next: NextFunction): void {
  response.setHeader('X-Request-Id', requestIdOf(request));
  next();
}
