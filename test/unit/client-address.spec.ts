import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { validateEnvironment } from '../../src/config/config.schema';
import { ForwardingHeader, parseTrustProxy } from '../../src/config/trust-proxy';
import { canonicalAddress, ClientAddressResolver, resolveClient } from '../../src/exchange/client-address';

function request(socketAddress: string, headers: IncomingHttpHeaders = {}, encrypted = false): IncomingMessage {
  return { headers, socket: { remoteAddress: socketAddress, encrypted } } as unknown as IncomingMessage;
}

const trust = (value: string, header: ForwardingHeader = 'x-forwarded-for') => parseTrustProxy(value, header);

describe('client address (TRUST_PROXY, DESIGN §15)', () => {
  describe('TRUST_PROXY unset: the socket, forwarding headers ignored', () => {
    it.each([
      [{ 'x-forwarded-for': '203.0.113.9' }],
      [{ forwarded: 'for=203.0.113.9;proto=https' }],
      [{ 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' }],
    ])('ignores %j', (headers) => {
      expect(resolveClient(request('198.51.100.4', headers), null)).toEqual({ address: '198.51.100.4', secure: false });
    });

    it('says https only for its own TLS', () => {
      expect(resolveClient(request('198.51.100.4', {}, true), null).secure).toBe(true);
    });
  });

  describe('spoofed headers from a peer that is not trusted', () => {
    it.each([
      ['loopback', '198.51.100.4', { 'x-forwarded-for': '127.0.0.1' }],
      ['loopback', '198.51.100.4', { 'x-forwarded-for': '203.0.113.9, 127.0.0.1' }],
      ['10.0.0.0/8', '127.0.0.1', { 'x-forwarded-for': '203.0.113.9' }],
      ['10.0.0.0/8', '10.0.0.1.evil', { 'x-forwarded-for': '203.0.113.9' }],
      ['uniquelocal', '2001:db8::7', { 'x-forwarded-for': '203.0.113.9' }],
    ])('TRUST_PROXY=%s, peer %s, %j: the peer is the client', (setting, peer, headers) => {
      const client = resolveClient(request(peer, { ...headers, 'x-forwarded-proto': 'https' }), trust(setting));
      expect(client).toEqual({ address: canonicalAddress(peer) ?? peer, secure: false });
    });
  });

  describe('X-Forwarded-For through trusted hops', () => {
    it.each([
      ['loopback', '127.0.0.1', '203.0.113.9', '203.0.113.9'],
      // The rightmost address that is not a trusted hop: what the client wrote on the left is not believed.
      ['loopback', '127.0.0.1', '6.6.6.6, 203.0.113.9', '203.0.113.9'],
      ['loopback', '127.0.0.1', '127.0.0.1, 203.0.113.9', '203.0.113.9'],
      // A chain of several proxies: every hop in 10/8 is trusted.
      ['loopback,10.0.0.0/8', '127.0.0.1', '198.51.100.7, 10.0.0.2, 10.0.0.3', '198.51.100.7'],
      ['loopback,10.0.0.0/8', '127.0.0.1', '6.6.6.6, 198.51.100.7, 10.0.0.2, 10.0.0.3', '198.51.100.7'],
      ['loopback, 10.0.0.0/8', '::ffff:127.0.0.1', '198.51.100.7,10.1.2.3', '198.51.100.7'],
      // Every hop trusted: the farthest one named is the client.
      ['loopback,10.0.0.0/8', '127.0.0.1', '10.9.9.9, 10.0.0.2', '10.9.9.9'],
      // Hop counts: the socket and the next n-1 hops, whatever their addresses.
      ['1', '192.0.2.1', '6.6.6.6, 203.0.113.9', '203.0.113.9'],
      ['2', '192.0.2.1', '6.6.6.6, 203.0.113.9, 198.51.100.1', '203.0.113.9'],
      ['3', '192.0.2.1', '203.0.113.9, 198.51.100.1', '203.0.113.9'],
      // A single address, not a range.
      ['192.0.2.1', '192.0.2.1', '203.0.113.9', '203.0.113.9'],
      ['192.0.2.1', '192.0.2.2', '203.0.113.9', '192.0.2.2'],
    ])('TRUST_PROXY=%s, peer %s, X-Forwarded-For %s → %s', (setting, peer, header, expected) => {
      expect(resolveClient(request(peer, { 'x-forwarded-for': header }), trust(setting)).address).toBe(expected);
    });

    it('reads IPv6 hops, with brackets and ports, canonically', () => {
      const setting = trust('loopback,fd00::/8');
      expect(resolveClient(request('::1', { 'x-forwarded-for': '2001:DB8:0:0::1' }), setting).address).toBe('2001:db8::1');
      expect(resolveClient(request('::1', { 'x-forwarded-for': '[2001:db8::1]:4711' }), setting).address).toBe('2001:db8::1');
      expect(resolveClient(request('::1', { 'x-forwarded-for': '2001:db8::1, fd00::5' }), setting).address).toBe('2001:db8::1');
      expect(resolveClient(request('::1', { 'x-forwarded-for': '203.0.113.9:51234' }), setting).address).toBe('203.0.113.9');
      expect(resolveClient(request('::1', { 'x-forwarded-for': '::ffff:203.0.113.9' }), setting).address).toBe('203.0.113.9');
      expect(resolveClient(request('::ffff:127.0.0.1', { 'x-forwarded-for': '2001:db8::2' }), setting).address).toBe('2001:db8::2');
    });

    it.each([
      ['garbage'],
      ['999.1.1.1'],
      ['unknown'],
      ['203.0.113.9, garbage'],
      [', ,'],
      ['1.2.3'],
      ['2001:db8::g'],
      ['<script>'],
      ['203.0.113.9 203.0.113.10'],
    ])('a malformed X-Forwarded-For (%j) ends the walk at the hop that sent it', (header) => {
      expect(resolveClient(request('127.0.0.1', { 'x-forwarded-for': header }), trust('loopback')).address).toBe('127.0.0.1');
    });

    it('a malformed hop behind a good one ends the walk at the good one', () => {
      const setting = trust('loopback,10.0.0.0/8');
      expect(resolveClient(request('127.0.0.1', { 'x-forwarded-for': 'garbage, 10.0.0.2' }), setting).address).toBe('10.0.0.2');
    });

    it('takes https from X-Forwarded-Proto of a trusted peer only (its first value, as Express)', () => {
      const setting = trust('loopback');
      expect(resolveClient(request('127.0.0.1', { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' }), setting).secure).toBe(true);
      expect(resolveClient(request('127.0.0.1', { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'HTTPS, http' }), setting).secure).toBe(true);
      expect(resolveClient(request('127.0.0.1', { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'http' }), setting).secure).toBe(false);
      expect(resolveClient(request('127.0.0.1', { 'x-forwarded-for': '203.0.113.9' }), setting).secure).toBe(false);
      expect(resolveClient(request('198.51.100.4', { 'x-forwarded-proto': 'https' }), setting).secure).toBe(false);
    });

    it('ignores Forwarded when the proxies write X-Forwarded-For (a client could write it)', () => {
      const headers = { 'x-forwarded-for': '203.0.113.9', forwarded: 'for=6.6.6.6' };
      expect(resolveClient(request('127.0.0.1', headers), trust('loopback')).address).toBe('203.0.113.9');
    });
  });

  describe('Forwarded (RFC 7239) through trusted hops, TRUST_PROXY_HEADER=forwarded', () => {
    it.each([
      ['loopback', 'for=192.0.2.60;proto=https;by=203.0.113.43', '192.0.2.60', true],
      ['loopback', 'For="[2001:db8:cafe::17]:4711"', '2001:db8:cafe::17', false],
      ['loopback', 'for=192.0.2.43, for=198.51.100.17', '198.51.100.17', false],
      ['loopback,10.0.0.0/8', 'for=198.51.100.17;proto=https, for=10.0.0.2;proto=http', '198.51.100.17', true],
      ['loopback,10.0.0.0/8', 'for=6.6.6.6, for=198.51.100.17;proto=https, for=10.0.0.2', '198.51.100.17', true],
      ['1', 'for="192.0.2.60:8080"', '192.0.2.60', false],
      // Obfuscated, unknown and malformed: the walk ends at the hop that sent it.
      ['loopback', 'for=unknown', '127.0.0.1', false],
      ['loopback', 'for=_hidden;proto=https', '127.0.0.1', true],
      ['loopback', 'for=192.0.2.60;;', '127.0.0.1', false],
      ['loopback', 'for=', '127.0.0.1', false],
      ['loopback', 'for="192.0.2.60', '127.0.0.1', false],
      ['loopback', 'proto=https', '127.0.0.1', true],
      ['loopback', 'for=[2001:db8::1]', '127.0.0.1', false],
    ])('TRUST_PROXY=%s, Forwarded: %s → %s (https: %s)', (setting, header, expected, secure) => {
      expect(resolveClient(request('127.0.0.1', { forwarded: header }), trust(setting, 'forwarded'))).toEqual({ address: expected, secure });
    });

    it('ignores X-Forwarded-For and X-Forwarded-Proto when the proxies write Forwarded', () => {
      const headers = { forwarded: 'for=203.0.113.9', 'x-forwarded-for': '6.6.6.6', 'x-forwarded-proto': 'https' };
      expect(resolveClient(request('127.0.0.1', headers), trust('loopback', 'forwarded'))).toEqual({ address: '203.0.113.9', secure: false });
    });

    it('ignores Forwarded from a peer that is not trusted', () => {
      expect(resolveClient(request('198.51.100.4', { forwarded: 'for=127.0.0.1;proto=https' }), trust('loopback', 'forwarded'))).toEqual({
        address: '198.51.100.4',
        secure: false,
      });
    });
  });

  it('resolves once per request and keeps the answer on it', () => {
    const resolver = new ClientAddressResolver(trust('loopback'));
    const incoming = request('127.0.0.1', { 'x-forwarded-for': '203.0.113.9' });
    const first = resolver.of(incoming);
    incoming.headers['x-forwarded-for'] = '198.51.100.1';
    expect(resolver.of(incoming)).toBe(first);
  });

  describe('parsing TRUST_PROXY', () => {
    it.each(['loopback', 'loopback,uniquelocal,linklocal', '10.0.0.0/8', '10.0.0.0/8, 192.168.0.0/16, ::1', '2001:db8::/32', '1', '32', '192.0.2.1', '10.0.0.0/255.0.0.0'])('accepts %s', (value) => {
      expect(() => parseTrustProxy(value, 'x-forwarded-for')).not.toThrow();
      expect(validateEnvironment({ TRUST_PROXY: value }).TRUST_PROXY).toBe(value);
    });

    it.each(['true', 'false', '0', '33', '-1', '10.0.0.0/33', 'loopback,,', 'everything', '10.0.0.300', 'loopback;10.0.0.0/8'])('refuses %s with a message naming the variable', (value) => {
      expect(() => validateEnvironment({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY: .*expected loopback, a comma-separated list of CIDRs, or a hop count/);
    });

    it('refuses an unknown TRUST_PROXY_HEADER and reads EVENT_RETENTION (0 keeps forever)', () => {
      expect(() => validateEnvironment({ TRUST_PROXY_HEADER: 'x-real-ip' })).toThrow(/TRUST_PROXY_HEADER/);
      expect(validateEnvironment({}).EVENT_RETENTION).toBe(90 * 86_400_000);
      expect(validateEnvironment({ EVENT_RETENTION: '0' }).EVENT_RETENTION).toBe(0);
      expect(validateEnvironment({ EVENT_RETENTION: '12h' }).EVENT_RETENTION).toBe(12 * 3_600_000);
      expect(() => validateEnvironment({ EVENT_RETENTION: 'forever' })).toThrow(/EVENT_RETENTION/);
    });
  });
});
