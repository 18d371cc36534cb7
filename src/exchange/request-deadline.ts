import type { IncomingMessage, ServerResponse } from 'node:http';

/*
 * The whole-request deadline. Node's own `requestTimeout` applies one limit to every request on
 * the server, but uploads to the local storage server need a deadline scaled to their size, so
 * the server runs with `requestTimeout: 0` (node-server.ts) and this timer takes its place: a
 * request whose body has not fully arrived when it fires is answered 408 and its socket closed,
 * as Node itself does.
 */

const DEADLINE = Symbol('requestDeadline');
type WithDeadline = IncomingMessage & { [DEADLINE]?: NodeJS.Timeout };

const REQUEST_TIMEOUT_RESPONSE = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';

/** Whether the request announces a body (only then can a client be slow sending it). */
export function announcesBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

function expire(request: IncomingMessage, response: ServerResponse): void {
  if (request.complete) return;
  const socket = request.socket;
  // Nothing answered yet: say why, as Node's own timeouts do, then drop the connection.
  if (socket.writable && !response.headersSent) socket.write(REQUEST_TIMEOUT_RESPONSE);
  socket.destroy();
}

/**
 * (Re)sets the deadline by which the request's body must have arrived, counted from now. Calling
 * it again replaces the previous deadline (the local storage server extends it for an upload).
 */
export function armRequestDeadline(request: IncomingMessage, response: ServerResponse, milliseconds: number): void {
  const target = request as WithDeadline;
  const previous = target[DEADLINE];
  if (previous) clearTimeout(previous);
  else request.once('close', () => clearTimeout(target[DEADLINE]));
  if (request.complete) return;
  const timer = setTimeout(() => expire(request, response), milliseconds);
  timer.unref();
  target[DEADLINE] = timer;
}
