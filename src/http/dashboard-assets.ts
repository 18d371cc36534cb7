import { createReadStream, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as path from 'node:path';
import { pathOf } from '../exchange/request-path';

/** Where `npm run build` puts the Vite build of `dashboard/` (never committed). */
export const DASHBOARD_BUILD_DIRECTORY = path.resolve(__dirname, '..', '..', 'dashboard', 'dist');
export const DASHBOARD_PREFIX = '/dashboard';
const DASHBOARD_API_PREFIX = '/dashboard/api/';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/**
 * The app's pages: its own scripts and styles only; `connect-src` also allows https origins, where
 * an S3 store's presigned upload URLs point.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self' https:",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

/** Whether a path belongs to the dashboard at all (its pages or its JSON routes). */
export function isDashboardPath(requestPath: string): boolean {
  return requestPath === DASHBOARD_PREFIX || requestPath.startsWith(`${DASHBOARD_PREFIX}/`);
}

/**
 * Serves the built dashboard at /dashboard on either adapter, from the same Node request and
 * response (each platform calls it from its earliest hook, before routing): a file of the build
 * when the path names one, else index.html, so the app's own routes survive a reload (SPA
 * fallback). `/dashboard/api/` is the service's JSON and passes on to routing.
 */
export class DashboardAssets {
  constructor(private readonly root: string = DASHBOARD_BUILD_DIRECTORY) {}

  handles(request: IncomingMessage): boolean {
    const requestPath = pathOf(request.url ?? '/');
    if (!isDashboardPath(requestPath) || requestPath.startsWith(DASHBOARD_API_PREFIX)) return false;
    return request.method === 'GET' || request.method === 'HEAD';
  }

  serve(request: IncomingMessage, response: ServerResponse): void {
    const requestPath = pathOf(request.url ?? '/');
    const file = this.fileFor(requestPath) ?? this.fileFor(`${DASHBOARD_PREFIX}/index.html`);
    response.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    if (!file) {
      response.statusCode = 404;
      response.setHeader('Content-Type', 'text/plain; charset=utf-8');
      response.end('The dashboard is not built: run npm run build\n');
      return;
    }
    response.statusCode = 200;
    response.setHeader('Content-Type', CONTENT_TYPES[path.extname(file.path)] ?? 'application/octet-stream');
    response.setHeader('Content-Length', String(file.size));
    // Vite names assets by content hash, so they never change; index.html names the current ones.
    response.setHeader('Cache-Control', file.path.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    createReadStream(file.path)
      .on('error', () => response.destroy())
      .pipe(response);
  }

  /** The build's file for a path under /dashboard, never outside the build directory. */
  private fileFor(requestPath: string): { path: string; size: number } | null {
    let relative: string;
    try {
      relative = decodeURIComponent(requestPath.slice(DASHBOARD_PREFIX.length).replace(/^\/+/, '')) || 'index.html';
    } catch {
      return null;
    }
    const candidate = path.resolve(this.root, relative);
    if (!candidate.startsWith(this.root + path.sep)) return null;
    try {
      const stats = statSync(candidate);
      return stats.isFile() ? { path: candidate, size: stats.size } : null;
    } catch {
      return null;
    }
  }
}
