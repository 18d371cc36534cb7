import { request as httpRequest } from 'node:http';
import { connect, Socket } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * One request through node:http, optionally from a chosen loopback source address (127.x.y.z):
 * the service counts failed authentications per client address, and a test with an address of
 * its own is isolated from other runs sharing a Redis.
 */
export function sendFrom(
  target: { port: number; localAddress?: string },
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<RawResponse> {
  // Node sends a GET's body without a length unless told (the server then can't frame it).
  const framed = body === undefined ? headers : { 'Content-Length': String(Buffer.byteLength(body)), ...headers };
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port: target.port, localAddress: target.localAddress, method, path, headers: framed, agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** A random loopback address other than 127.0.0.1. */
export function randomLoopbackAddress(): string {
  const octet = () => 1 + Math.floor(Math.random() * 250);
  return `127.${octet()}.${octet()}.${octet()}`;
}

/** What a raw socket saw: everything the server sent, and whether and when the server closed it. */
export interface SocketOutcome {
  received: string;
  closedAfterMilliseconds: number | null;
  bytesWritten: number;
}

/**
 * A client that sends `head` (request line and headers, raw) and then trickles body bytes:
 * `chunkBytes` every `intervalMilliseconds` until `totalBytes` are sent or the server closes the
 * connection. Resolves when the socket closes or after `giveUpAfterMilliseconds`.
 */
export function trickle(options: {
  port: number;
  head: string;
  chunkBytes: number;
  intervalMilliseconds: number;
  totalBytes: number;
  giveUpAfterMilliseconds: number;
}): { done: Promise<SocketOutcome>; socket: Socket } {
  const socket = connect(options.port, '127.0.0.1');
  const started = Date.now();
  let received = '';
  let sent = 0;
  let timer: NodeJS.Timeout | undefined;
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  // The server closing on us mid-write is the point of these tests.
  socket.on('error', () => undefined);
  const done = new Promise<SocketOutcome>((resolve) => {
    const giveUp = setTimeout(() => {
      clearInterval(timer);
      resolve({ received, closedAfterMilliseconds: null, bytesWritten: sent });
      socket.destroy();
    }, options.giveUpAfterMilliseconds);
    socket.once('close', () => {
      clearTimeout(giveUp);
      clearInterval(timer);
      resolve({ received, closedAfterMilliseconds: Date.now() - started, bytesWritten: sent });
    });
  });
  socket.once('connect', () => {
    socket.write(options.head);
    timer = setInterval(() => {
      if (socket.destroyed || sent >= options.totalBytes) return clearInterval(timer);
      const size = Math.min(options.chunkBytes, options.totalBytes - sent);
      sent += size;
      socket.write(Buffer.alloc(size, 0x61));
    }, options.intervalMilliseconds);
  });
  return { done, socket };
}
