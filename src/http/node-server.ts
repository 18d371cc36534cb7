import { createServer, IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { HttpTimeouts } from '../config/app-config';

/** Answers a request before the framework when it can (the direct routes); false hands it on. */
export type FrontHandler = (request: IncomingMessage, response: ServerResponse) => boolean;

/**
 * The Node HTTP server both adapters run on, so slow clients meet the same limits whichever
 * adapter serves: headers within HTTP_HEADERS_TIMEOUT (Node answers 408 and closes), bodies
 * within HTTP_REQUEST_TIMEOUT (request-deadline.ts, armed by the request gate). `front` sees
 * every request first (src/http/direct-router.ts); what it doesn't answer goes to `listener`.
 */
/**
 * The longest request line plus headers Node reads (its default is 16 KiB). A longer head gets
 * Node's bare 431 before any of our rules; up to this, a long path, query value or header reaches
 * the request gate and the validation, which answer with a catalogued 404 or 400 naming it (every
 * string bound is under 64 KiB, and a 64 KiB value must get that answer).
 */
export const MAX_REQUEST_HEAD_BYTES = 80 * 1024;

export function createNodeServer(listener: RequestListener | undefined, timeouts: HttpTimeouts, front: FrontHandler): Server {
  const server = createServer({
    maxHeaderSize: MAX_REQUEST_HEAD_BYTES,
    headersTimeout: timeouts.headersMilliseconds,
    // The body deadline is armed per request (uploads get a longer one); 0 turns Node's off.
    requestTimeout: 0,
    // How often Node looks for expired headers; its default (30 s) would let a trickler live
    // three times the headers timeout.
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(timeouts.headersMilliseconds / 4))),
  });
  if (listener) server.on('request', (request: IncomingMessage, response: ServerResponse) => front(request, response) || listener(request, response));
  // Node's default, set explicitly: Fastify would otherwise apply its own 72 s.
  server.keepAliveTimeout = 5_000;
  return server;
}
