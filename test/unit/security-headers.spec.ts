import type { IncomingMessage } from 'node:http';
import { createHelmet, createSecurityHeaders, recordHelmetEffect } from '../../src/http/security-headers';

const REQUESTS = [
  { method: 'GET', url: '/v1/entitlements/check?customer_id=cus_1', headers: { authorization: 'Bearer x' } },
  { method: 'POST', url: '/v1/entitlements', headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https' } },
  { method: 'GET', url: '/docs', headers: { accept: 'text/html', 'user-agent': 'Mozilla/5.0 (Windows NT 10.0) MSIE 8.0' } },
  { method: 'HEAD', url: '/dashboard/', headers: {} },
] as unknown as IncomingMessage[];

describe('security headers', () => {
  it('are exactly what helmet sets and removes, for every kind of request', () => {
    const helmet = createHelmet();
    const precomputed = createSecurityHeaders();
    for (const request of REQUESTS) {
      const expected = recordHelmetEffect(helmet, request);
      expect(expected.set.length).toBeGreaterThan(10);
      expect({ url: request.url, effect: recordHelmetEffect(precomputed, request) }).toEqual({ url: request.url, effect: expected });
    }
  });
});
