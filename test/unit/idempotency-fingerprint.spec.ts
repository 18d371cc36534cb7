import { canonicalJson } from '../../src/idempotency/canonical-json';
import { requestFingerprint } from '../../src/idempotency/idempotency.service';

describe('idempotency request fingerprint', () => {
  it('sorts keys at every level and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
    expect(canonicalJson({ a: undefined, b: 'x' })).toBe('{"b":"x"}');
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('is the same for the same method, path and body in any key order, without idempotency_key', () => {
    const base = requestFingerprint('POST', '/v1/entitlements', { product_id: 'p', store_customer_id: 'c' });
    expect(requestFingerprint('post', '/v1/entitlements', { store_customer_id: 'c', product_id: 'p', idempotency_key: 'k' })).toBe(base);
  });

  it('differs when the method, the path or any value differs', () => {
    const base = requestFingerprint('POST', '/v1/products', { name: 'a' });
    expect(requestFingerprint('POST', '/v1/entitlements', { name: 'a' })).not.toBe(base);
    expect(requestFingerprint('PUT', '/v1/products', { name: 'a' })).not.toBe(base);
    expect(requestFingerprint('POST', '/v1/products', { name: 'b' })).not.toBe(base);
    expect(requestFingerprint('POST', '/v1/products', { name: 'a', metadata: {} })).not.toBe(base);
    expect(requestFingerprint('POST', '/v1/products', undefined)).toBe(requestFingerprint('POST', '/v1/products', null));
  });
});
