import { createReadStream, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { pathOf } from '../exchange/request-path';

/** Where `npm run build` puts the Vite build of `dashboard/` (never committed). */
export const DASHBOARD_BUILD_DIRECTORY = path.resolve(__dirname, '..', '..', 'dashboard', 'dist');
export const DASHBOARD_PREFIX = '/dashboard';
const DASHBOARD_API_PREFIX = '/dashboard/api/';
/** Where `npm run build` puts the Vite build of `portal/`, the customer portal (DESIGN §19). */
export const PORTAL_BUILD_DIRECTORY = path.resolve(__dirname, '..', '..', 'portal', 'dist');
export const PORTAL_PREFIX = '/portal';
/** The portal's JSON, and the links that start its sessions: the service's routes, not the app's files. */
const PORTAL_ROUTE_PREFIXES = ['/portal/api/', '/portal/open/'];

/**
 * The portal's pages: stricter than the dashboard's, as they face every customer: its own script
 * and style sheet only (no inline style), images from https (the merchant's logo), requests to
 * this service only. A download is a navigation to its URL, which connect-src does not govern.
 */
export const PORTAL_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' https: data:",
  "connect-src 'self'",
  "manifest-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
].join('; ');

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
 * an S3 store's presigned upload URLs point, and the upload origins: PUBLIC_BASE_URL's, where the
 * local driver's upload URLs point (the page may be opened at another address of the same
 * service), and S3_ENDPOINT's.
 */
function contentSecurityPolicy(uploadOrigins: string[]): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    ["connect-src 'self' https:", ...new Set(uploadOrigins)].join(' '),
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
}

/** Text worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.json', '.map']);
type Encoding = 'br' | 'gzip';
const COMPRESSORS: Record<Encoding, (content: Buffer) => Promise<Buffer>> = {
  // Best ratio: each file is compressed once per process (the build never changes under it).
  br: (content) => promisify(brotliCompress)(content, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: content.length } }),
  gzip: (content) => promisify(gzip)(content, { level: 9 }),
};

/** The encoding to send: brotli, else gzip, when the client accepts it (q=0 refuses). */
export function preferredEncoding(acceptEncoding: string | undefined): Encoding | null {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((entry) => entry.trim().split(';').map((part) => part.trim()))
      .filter(([, ...parameters]) => !parameters.some((parameter) => /^q=0(\.0*)?$/.test(parameter)))
      .map(([name]) => name.toLowerCase()),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

/** Whether a path belongs to the dashboard at all (its pages or its JSON routes). */
export function isDashboardPath(requestPath: string): boolean {
  return requestPath === DASHBOARD_PREFIX || requestPath.startsWith(`${DASHBOARD_PREFIX}/`);
}

/** A built web app the service serves from its earliest hook (the dashboard, the portal). */
export interface WebApp {
  handles(request: IncomingMessage): boolean;
  serve(request: IncomingMessage, response: ServerResponse): void;
}

/** Several web apps, each under its own prefix: the first that handles a request serves it. */
export class WebApps implements WebApp {
  constructor(private readonly apps: readonly WebApp[]) {}

  handles(request: IncomingMessage): boolean {
    return this.apps.some((app) => app.handles(request));
  }

  serve(request: IncomingMessage, response: ServerResponse): void {
    this.apps.find((app) => app.handles(request))?.serve(request, response);
  }
}

/** The portal's build at /portal, beside its JSON routes and its links. */
export function portalAssets(root = PORTAL_BUILD_DIRECTORY): DashboardAssets {
  return new DashboardAssets({ root, prefix: PORTAL_PREFIX, routePrefixes: PORTAL_ROUTE_PREFIXES, contentSecurityPolicy: PORTAL_CONTENT_SECURITY_POLICY, appName: 'portal' });
}

/**
 * Serves the built dashboard at /dashboard on either adapter, from the same Node request and
 * response (each platform calls it from its earliest hook, before routing): a file of the build
 * when the path names one, else index.html, so the app's own routes survive a reload (SPA
 * fallback). `/dashboard/api/` is the service's JSON and passes on to routing.
 */
export class DashboardAssets implements WebApp {
  private readonly root: string;
  private readonly prefix: string;
  private readonly routePrefixes: readonly string[];
  private readonly appName: string;
  private readonly contentSecurityPolicy: string;
  /** Compressed files by path, encoding and modification time, each made once (concurrent asks share it). */
  private readonly compressed = new Map<string, Promise<Buffer>>();

  /** The dashboard's by default; `prefix`, `routePrefixes` (left to routing) and the policy make it another app's. */
  constructor(options: { uploadOrigins?: string[]; root?: string; prefix?: string; routePrefixes?: readonly string[]; contentSecurityPolicy?: string; appName?: string } = {}) {
    this.root = options.root ?? DASHBOARD_BUILD_DIRECTORY;
    this.prefix = options.prefix ?? DASHBOARD_PREFIX;
    this.routePrefixes = options.routePrefixes ?? [DASHBOARD_API_PREFIX];
    this.appName = options.appName ?? 'dashboard';
    this.contentSecurityPolicy = options.contentSecurityPolicy ?? contentSecurityPolicy(options.uploadOrigins ?? []);
  }

  handles(request: IncomingMessage): boolean {
    const requestPath = pathOf(request.url ?? '/');
    const inApp = requestPath === this.prefix || requestPath.startsWith(`${this.prefix}/`);
    if (!inApp || this.routePrefixes.some((routePrefix) => requestPath.startsWith(routePrefix))) return false;
    return request.method === 'GET' || request.method === 'HEAD';
  }

  serve(request: IncomingMessage, response: ServerResponse): void {
    const requestPath = pathOf(request.url ?? '/');
    const file = this.fileFor(requestPath) ?? this.fileFor(`${this.prefix}/index.html`);
    response.setHeader('Content-Security-Policy', this.contentSecurityPolicy);
    if (!file) {
      response.statusCode = 404;
      response.setHeader('Content-Type', 'text/plain; charset=utf-8');
      response.end(`The ${this.appName} is not built: run npm run build\n`);
      return;
    }
    response.statusCode = 200;
    const extension = path.extname(file.path);
    response.setHeader('Content-Type', CONTENT_TYPES[extension] ?? 'application/octet-stream');
    // Vite names assets by content hash, so they never change; index.html names the current ones.
    response.setHeader('Cache-Control', file.path.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    const encoding = COMPRESSIBLE.has(extension) ? preferredEncoding(request.headers['accept-encoding']) : null;
    if (COMPRESSIBLE.has(extension)) response.setHeader('Vary', 'Accept-Encoding');
    if (encoding) {
      this.compressedFile(file, encoding).then(
        (content) => {
          response.setHeader('Content-Encoding', encoding);
          response.setHeader('Content-Length', String(content.length));
          response.end(request.method === 'HEAD' ? undefined : content);
        },
        () => response.destroy(),
      );
      return;
    }
    response.setHeader('Content-Length', String(file.size));
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    createReadStream(file.path)
      .on('error', () => response.destroy())
      .pipe(response);
  }

  private compressedFile(file: { path: string; modified: number }, encoding: Encoding): Promise<Buffer> {
    const key = `${encoding}:${file.modified}:${file.path}`;
    let content = this.compressed.get(key);
    if (!content) {
      content = readFile(file.path).then(COMPRESSORS[encoding]);
      // A failure is not kept: the next request tries again.
      content.catch(() => this.compressed.delete(key));
      this.compressed.set(key, content);
    }
    return content;
  }

  /** The build's file for a path under the app's prefix, never outside the build directory. */
  private fileFor(requestPath: string): { path: string; size: number; modified: number } | null {
    let relative: string;
    try {
      relative = decodeURIComponent(requestPath.slice(this.prefix.length).replace(/^\/+/, '')) || 'index.html';
    } catch {
      return null;
    }
    const candidate = path.resolve(this.root, relative);
    if (!candidate.startsWith(this.root + path.sep)) return null;
    try {
      const stats = statSync(candidate);
      return stats.isFile() ? { path: candidate, size: stats.size, modified: stats.mtimeMs } : null;
    } catch {
      return null;
    }
  }
}
