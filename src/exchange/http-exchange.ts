import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { pathOf } from './request-path';

/*
 * The adapter-neutral view of a request and its response. Express's request/response and
 * Fastify's request/reply both have these members, so guards, interceptors and controllers read
 * and write through these types and never import either framework.
 */

export interface HttpRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body?: unknown;
  query?: unknown;
}

export interface HttpResponse {
  statusCode: number;
  status(code: number): unknown;
  header(name: string, value: string): unknown;
}

/** The Node request under either adapter's request object (Fastify wraps it in `raw`). */
export function rawRequestOf(request: HttpRequest | IncomingMessage): IncomingMessage {
  const wrapped = request as { raw?: IncomingMessage };
  return wrapped.raw ?? (request as IncomingMessage);
}

/** The request's path without its query string (Express may rewrite `url` inside routers; `originalUrl` keeps it). */
export function requestPathOf(request: HttpRequest): string {
  return pathOf((request as { originalUrl?: string }).originalUrl ?? request.url);
}

export function setResponseHeaders(response: HttpResponse, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) response.header(name, value);
}

/**
 * Hands the Node response to code that writes it itself (the local storage server streams files).
 * Fastify must be told (`hijack`), or it would try to answer the request a second time.
 */
export function takeOverResponse(response: HttpResponse): ServerResponse {
  const reply = response as unknown as { raw?: ServerResponse; hijack?: () => void };
  if (reply.raw && typeof reply.hijack === 'function') {
    reply.hijack();
    return reply.raw;
  }
  return response as unknown as ServerResponse;
}
