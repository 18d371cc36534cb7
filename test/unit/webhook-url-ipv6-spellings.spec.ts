import { addressRefusal, checkWebhookUrlSyntax, PrivateWebhookUrlError } from '../../src/webhooks/webhook-url-guard';

jest.mock('node:dns', () => ({
  // Every name resolves to the address written in it: `<address with - for :>.test`.
  lookup: (hostname: string, _options: unknown, callback: (error: Error | null, addresses: { address: string; family: number }[]) => void) => {
    const address = hostname.replace(/\.test$/, '').replace(/-/g, ':');
    callback(null, [{ address, family: address.includes(':') ? 6 : 4 }]);
  },
}));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { guardedLookup } = require('../../src/webhooks/webhook-sender') as typeof import('../../src/webhooks/webhook-sender');

/**
 * Every IPv6 spelling of a refused destination (DESIGN §8, issue 22): the address, and the part of
 * the reason that says why. Each is refused at registration (an IP literal in the URL) and at send
 * time (a name resolving to it).
 */
const REFUSED: [address: string, reason: string][] = [
  // IPv4-compatible ::/96: deprecated, refused whatever it carries.
  ['::127.0.0.1', 'IPv4-compatible ::/96 (deprecated), carrying 127.0.0.1'],
  ['::7f00:1', 'IPv4-compatible ::/96 (deprecated), carrying 127.0.0.1'],
  ['0:0:0:0:0:0:7f00:1', 'IPv4-compatible ::/96 (deprecated), carrying 127.0.0.1'],
  ['::10.0.0.1', 'IPv4-compatible ::/96 (deprecated), carrying 10.0.0.1'],
  ['::a00:1', 'IPv4-compatible ::/96 (deprecated), carrying 10.0.0.1'],
  ['::169.254.169.254', 'IPv4-compatible ::/96 (deprecated), carrying 169.254.169.254'],
  ['::a9fe:a9fe', 'IPv4-compatible ::/96 (deprecated), carrying 169.254.169.254'],
  ['::192.168.1.1', 'IPv4-compatible ::/96 (deprecated), carrying 192.168.1.1'],
  ['::172.16.0.1', 'IPv4-compatible ::/96 (deprecated), carrying 172.16.0.1'],
  ['::100.64.0.1', 'IPv4-compatible ::/96 (deprecated), carrying 100.64.0.1'],
  ['::8.8.8.8', 'IPv4-compatible ::/96 (deprecated), carrying 8.8.8.8'],
  ['::0.0.0.2', 'IPv4-compatible ::/96 (deprecated), carrying 0.0.0.2'],
  // IPv4-mapped ::ffff:0:0/96: judged by the IPv4 address inside.
  ['::ffff:127.0.0.1', 'IPv4-mapped ::ffff:0:0/96 of 127.0.0.1: loopback'],
  ['::ffff:7f00:1', 'IPv4-mapped ::ffff:0:0/96 of 127.0.0.1: loopback'],
  ['::FFFF:7F00:0001', 'IPv4-mapped ::ffff:0:0/96 of 127.0.0.1: loopback'],
  ['0:0:0:0:0:ffff:127.0.0.1', 'IPv4-mapped ::ffff:0:0/96 of 127.0.0.1: loopback'],
  ['::ffff:10.0.0.1', 'IPv4-mapped ::ffff:0:0/96 of 10.0.0.1: private'],
  ['::ffff:a9fe:a9fe', 'IPv4-mapped ::ffff:0:0/96 of 169.254.169.254: the cloud metadata address'],
  ['::ffff:169.254.1.1', 'IPv4-mapped ::ffff:0:0/96 of 169.254.1.1: link-local'],
  ['::ffff:192.168.0.1', 'IPv4-mapped ::ffff:0:0/96 of 192.168.0.1: private'],
  ['::ffff:100.64.0.1', 'IPv4-mapped ::ffff:0:0/96 of 100.64.0.1: carrier-grade NAT'],
  ['::ffff:0.0.0.0', 'IPv4-mapped ::ffff:0:0/96 of 0.0.0.0: the unspecified address'],
  ['::ffff:224.0.0.1', 'IPv4-mapped ::ffff:0:0/96 of 224.0.0.1: multicast'],
  ['::ffff:255.255.255.255', 'IPv4-mapped ::ffff:0:0/96 of 255.255.255.255: the broadcast address'],
  // IPv4-translated ::ffff:0:0:0/96 (SIIT): refused whatever it carries.
  ['::ffff:0:127.0.0.1', 'IPv4-translated ::ffff:0:0:0/96 (SIIT), carrying 127.0.0.1'],
  ['::ffff:0:a00:1', 'IPv4-translated ::ffff:0:0:0/96 (SIIT), carrying 10.0.0.1'],
  ['::ffff:0:808:808', 'IPv4-translated ::ffff:0:0:0/96 (SIIT), carrying 8.8.8.8'],
  // NAT64 64:ff9b::/96: judged by the IPv4 address inside.
  ['64:ff9b::127.0.0.1', 'NAT64 64:ff9b::/96 of 127.0.0.1: loopback'],
  ['64:ff9b::7f00:1', 'NAT64 64:ff9b::/96 of 127.0.0.1: loopback'],
  ['64:ff9b::10.0.0.1', 'NAT64 64:ff9b::/96 of 10.0.0.1: private'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 64:ff9b::/96 of 169.254.169.254: the cloud metadata address'],
  ['64:ff9b::c0a8:1', 'NAT64 64:ff9b::/96 of 192.168.0.1: private'],
  ['64:ff9b::0.0.0.0', 'NAT64 64:ff9b::/96 of 0.0.0.0: the unspecified address'],
  ['64:ff9b::100.64.0.1', 'NAT64 64:ff9b::/96 of 100.64.0.1: carrier-grade NAT'],
  // Local-use NAT64 64:ff9b:1::/48: the operator's own translator, refused whatever it carries.
  ['64:ff9b:1::808:808', 'local-use NAT64 64:ff9b:1::/48'],
  ['64:ff9b:1::a00:1', 'local-use NAT64 64:ff9b:1::/48'],
  ['64:ff9b:1:ffff::1', 'local-use NAT64 64:ff9b:1::/48'],
  // 6to4 2002::/16 and Teredo 2001::/32: tunnels whose far end can't be judged from here.
  ['2002:7f00:1::', '6to4 2002::/16 (deprecated relay tunnel), carrying 127.0.0.1'],
  ['2002:a00:1::1', '6to4 2002::/16 (deprecated relay tunnel), carrying 10.0.0.1'],
  ['2002:a9fe:a9fe::', '6to4 2002::/16 (deprecated relay tunnel), carrying 169.254.169.254'],
  ['2002:c0a8:101::1', '6to4 2002::/16 (deprecated relay tunnel), carrying 192.168.1.1'],
  ['2002:808:808::1', '6to4 2002::/16 (deprecated relay tunnel), carrying 8.8.8.8'],
  ['2001::1', 'Teredo 2001::/32 (tunnel through a relay)'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo 2001::/32 (tunnel through a relay), carrying 65.54.227.120'],
  ['2001:0:a00:1::', 'Teredo 2001::/32 (tunnel through a relay), carrying 10.0.0.1'],
  ['2001:0:ffff:ffff:ffff:ffff:ffff:ffff', 'Teredo 2001::/32'],
  // Unique local fc00::/7.
  ['fc00::1', 'unique local (ULA) fc00::/7'],
  ['fd00::1', 'unique local (ULA) fc00::/7'],
  ['fd12:3456:789a::1', 'unique local (ULA) fc00::/7'],
  ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'unique local (ULA) fc00::/7'],
  ['fd00:ec2::254', 'the cloud metadata address fd00:ec2::254'],
  // Link-local fe80::/10 and site-local fec0::/10.
  ['fe80::1', 'link-local fe80::/10'],
  ['fe80::a9fe:a9fe', 'link-local fe80::/10'],
  ['febf:ffff::1', 'link-local fe80::/10'],
  ['fec0::1', 'site-local fec0::/10'],
  ['fed0::a00:1', 'site-local fec0::/10'],
  ['feff::1', 'site-local fec0::/10'],
  // Multicast ff00::/8.
  ['ff02::1', 'multicast ff00::/8'],
  ['ff05::1:3', 'multicast ff00::/8'],
  ['ff0e::1', 'multicast ff00::/8'],
  ['ff00::', 'multicast ff00::/8'],
  // Unspecified and loopback.
  ['::', 'the unspecified address ::'],
  ['0:0:0:0:0:0:0:0', 'the unspecified address ::'],
  ['::1', 'loopback ::1'],
  ['0:0:0:0:0:0:0:1', 'loopback ::1'],
  ['0000:0000:0000:0000:0000:0000:0000:0001', 'loopback ::1'],
  // Other special-purpose ranges.
  ['100::1', 'discard-only 100::/64'],
  ['2001:db8::1', 'reserved (documentation'],
];

/** Public addresses, spelled as IPv6 too, that still receive webhooks. */
const ALLOWED = ['2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '::ffff:808:808', '64:ff9b::8.8.8.8', '64:ff9b::5db8:d822'];

const lookUp = (hostname: string) =>
  new Promise<NodeJS.ErrnoException | null>((done) => guardedLookup(hostname, { all: true }, (error) => done(error)));

describe('webhook URL guard: IPv6 spellings of refused destinations', () => {
  it('covers at least 60 spellings', () => {
    expect(REFUSED.length).toBeGreaterThanOrEqual(60);
  });

  it.each(REFUSED)('%s is refused: %s', async (address, reason) => {
    expect(addressRefusal(address)).toContain(reason);
    // Registration: the address as a URL literal (the WHATWG parser rewrites it; the reason holds).
    const url = `http://[${address}]:8080/hook`;
    expect(() => checkWebhookUrlSyntax(url, 'test', false)).toThrow(PrivateWebhookUrlError);
    expect(() => checkWebhookUrlSyntax(url, 'test', false)).toThrow(reason);
    // Send time: a name that resolves to it.
    const refusal = await lookUp(`${address.replace(/:/g, '-')}.test`);
    expect(refusal?.code).toBe('EFORBIDDENADDRESS');
    expect(refusal?.message).toContain(reason);
  });

  it('refuses a zone-scoped link-local answer (getaddrinfo may give one)', () => {
    expect(addressRefusal('fe80::1%eth0')).toContain('link-local fe80::/10');
    expect(addressRefusal('fe80::10.0.0.1%2')).toContain('link-local fe80::/10');
  });

  it.each(ALLOWED)('%s is a public destination', async (address) => {
    expect(addressRefusal(address)).toBeNull();
    expect(() => checkWebhookUrlSyntax(`https://[${address}]/hook`, 'live', false)).not.toThrow();
    expect(await lookUp(`${address.replace(/:/g, '-')}.test`)).toBeNull();
  });
});
