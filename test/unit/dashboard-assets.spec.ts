import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, get as httpGet, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { DashboardAssets, preferredEncoding } from '../../src/http/dashboard-assets';

describe('dashboard assets', () => {
  it('prefers brotli, then gzip, and honours q=0', () => {
    expect(preferredEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(preferredEncoding('gzip;q=0.8, br;q=0')).toBe('gzip');
    expect(preferredEncoding('GZIP')).toBe('gzip');
    expect(preferredEncoding('identity')).toBeNull();
    expect(preferredEncoding(undefined)).toBeNull();
  });

  describe('served from a build', () => {
    let server: Server;
    let base: string;
    const script = `export const answer = ${JSON.stringify('x'.repeat(10_000))};\n`;

    beforeAll(async () => {
      const root = mkdtempSync(path.join(tmpdir(), 'dashboard-assets-'));
      mkdirSync(path.join(root, 'assets'));
      writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>Dashboard</title>');
      writeFileSync(path.join(root, 'assets', 'index-abc.js'), script);
      writeFileSync(path.join(root, 'assets', 'logo-abc.png'), Buffer.alloc(100, 1));
      const assets = new DashboardAssets({ root, uploadOrigins: ['http://127.0.0.1:3000', 'http://minio.local:9000', 'http://127.0.0.1:3000'] });
      server = createServer((request, response) => assets.serve(request, response));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));

    const get = (file: string, acceptEncoding?: string) =>
      new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
        // node:http, not fetch: fetch would decompress and hide the encoding.
        const request = httpGet(`${base}${file}`, { headers: acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {} }, (response: IncomingMessage) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
        });
        request.on('error', reject);
      });

    it('compresses scripts per Accept-Encoding, with immutable caching and Vary', async () => {
      const brotli = await get('/dashboard/assets/index-abc.js', 'gzip, br');
      expect(brotli.headers['content-encoding']).toBe('br');
      expect(brotli.headers.vary).toBe('Accept-Encoding');
      expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(Number(brotli.headers['content-length'])).toBe(brotli.body.length);
      expect(brotliDecompressSync(brotli.body).toString()).toBe(script);
      const gzipped = await get('/dashboard/assets/index-abc.js', 'gzip');
      expect(gzipped.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzipped.body).toString()).toBe(script);
      const plain = await get('/dashboard/assets/index-abc.js');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.toString()).toBe(script);
    });

    it('sends images as they are, and index.html revalidated, with the upload origins in connect-src', async () => {
      const image = await get('/dashboard/assets/logo-abc.png', 'br');
      expect(image.headers['content-encoding']).toBeUndefined();
      expect(image.body.length).toBe(100);
      const page = await get('/dashboard/products', 'br');
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.headers['content-security-policy']).toContain("connect-src 'self' https: http://127.0.0.1:3000 http://minio.local:9000;");
    });
  });
});
