import { parseTrustProxy } from '../../src/config/trust-proxy';

function refusal(value: string): string | null {
  try {
    parseTrustProxy(value, 'x-forwarded-for');
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/** TRUST_PROXY (DESIGN §15): which hops may say who the client is. client-address.spec.ts walks whole requests. */
describe('parseTrustProxy', () => {
  describe('a hop count', () => {
    it('trusts the socket and the next n - 1 hops, whatever their addresses, and no further', () => {
      const two = parseTrustProxy('2', 'x-forwarded-for');
      expect([0, 1, 2, 3].map((hop) => two.trusts('203.0.113.9', hop))).toEqual([true, true, false, false]);
      const one = parseTrustProxy('1', 'forwarded');
      expect([0, 1].map((hop) => one.trusts('10.0.0.1', hop))).toEqual([true, false]);
    });

    it('describes itself for the start-up summary, singular and plural', () => {
      expect(parseTrustProxy('1', 'x-forwarded-for').description).toBe('1 hop');
      expect(parseTrustProxy('3', 'x-forwarded-for').description).toBe('3 hops');
      expect(parseTrustProxy(' 32 ', 'x-forwarded-for').description).toBe('32 hops');
    });

    it.each(['0', '33', '1000'])('refuses %s: between 1 and 32', (value) => {
      expect(refusal(value)).toBe('a hop count must be between 1 and 32');
    });

    it('keeps the header it was given', () => {
      expect(parseTrustProxy('1', 'forwarded').header).toBe('forwarded');
      expect(parseTrustProxy('loopback', 'x-forwarded-for').header).toBe('x-forwarded-for');
    });
  });

  describe('a list of ranges', () => {
    it('trusts exactly the listed addresses and ranges, at any hop', () => {
      const trust = parseTrustProxy('loopback, 10.0.0.0/8,192.0.2.1', 'x-forwarded-for');
      expect(trust.description).toBe('loopback,10.0.0.0/8,192.0.2.1');
      expect(trust.trusts('127.0.0.1', 0)).toBe(true);
      expect(trust.trusts('::1', 5)).toBe(true);
      expect(trust.trusts('10.200.3.4', 7)).toBe(true);
      expect(trust.trusts('192.0.2.1', 1)).toBe(true);
      expect(trust.trusts('192.0.2.2', 0)).toBe(false);
      expect(trust.trusts('11.0.0.1', 0)).toBe(false);
    });

    it('accepts the named ranges and single addresses that start with digits (not hop counts)', () => {
      expect(parseTrustProxy('linklocal,uniquelocal', 'forwarded').trusts('fd00::1', 0)).toBe(true);
      expect(parseTrustProxy('linklocal,uniquelocal', 'forwarded').trusts('169.254.1.1', 0)).toBe(true);
      const address = parseTrustProxy('10.0.0.1', 'x-forwarded-for');
      expect(address.description).toBe('10.0.0.1');
      expect(address.trusts('10.0.0.1', 9)).toBe(true);
      expect(address.trusts('10.0.0.2', 0)).toBe(false);
      expect(parseTrustProxy('10.0.0.0/8', 'x-forwarded-for').trusts('10.1.1.1', 12)).toBe(true);
    });

    it.each(['loopback,', ',loopback', 'loopback,,10.0.0.0/8', ' , '])('refuses an empty entry in %j', (value) => {
      expect(refusal(value)).toBe('has an empty entry');
    });

    it.each([
      ['everything', 'true'],
      ['a name proxy-addr does not know', 'localhost'],
      ['a malformed address', '999.1.1.1'],
      ['a malformed range', '10.0.0.0/99'],
    ])('refuses %s, naming the entry', (_case, entry) => {
      expect(refusal(`loopback,${entry}`)).toBe(`"${entry}" is not loopback, linklocal, uniquelocal, an IP address or a CIDR`);
    });
  });
});
