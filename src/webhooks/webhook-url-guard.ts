import ipaddr from 'ipaddr.js';
import { lookup } from 'node:dns/promises';
import type { ApiMode } from '../database/tenant';

/** Metadata services reachable from cloud instances, refused whatever their range says. */
const METADATA_ADDRESSES = new Set(['169.254.169.254', 'fd00:ec2::254']);

/** Why an IPv4 range is refused; every range but `unicast` is (ipaddr.js's names). */
const IPV4_RANGE_REASONS: Record<string, string> = {
  unspecified: 'the unspecified address 0.0.0.0/8',
  broadcast: 'the broadcast address',
  multicast: 'multicast 224.0.0.0/4',
  linkLocal: 'link-local 169.254.0.0/16',
  loopback: 'loopback 127.0.0.0/8',
  carrierGradeNat: 'carrier-grade NAT 100.64.0.0/10',
  private: 'private 10/8, 172.16/12 or 192.168/16',
  reserved: 'reserved (documentation, benchmarking or future use)',
  as112: 'AS112 192.31.196.0/24',
  amt: 'AMT 192.52.193.0/24',
};

/** Why an IPv6 range is refused; every range but `unicast` is (ipaddr.js's names). */
const IPV6_RANGE_REASONS: Record<string, string> = {
  unspecified: 'the unspecified address ::',
  loopback: 'loopback ::1',
  linkLocal: 'link-local fe80::/10',
  uniqueLocal: 'unique local (ULA) fc00::/7',
  deprecatedSiteLocal: 'site-local fec0::/10',
  multicast: 'multicast ff00::/8',
  discard: 'discard-only 100::/64',
  reserved: 'reserved (documentation 2001:db8::/32 or unassigned)',
  benchmarking: 'benchmarking 2001:2::/48',
  amt: 'AMT 2001:3::/32',
  as112v6: 'AS112 2001:4:112::/48',
  deprecatedOrchid: 'ORCHID 2001:10::/28',
  orchid2: 'ORCHIDv2 2001:20::/28',
  droneRemoteIdProtocolEntityTags: 'DRIP 2001:30::/28',
  segmentRouting: 'segment routing 5f00::/16',
};

/**
 * IPv6 prefixes that carry an IPv4 address inside (or lead to a translator). `judgeEmbedded`: the
 * address is refused when the IPv4 inside is; otherwise every address in the prefix is refused,
 * because where it leads can't be judged from here (a tunnel relay, a local translator, a
 * deprecated form no public host uses).
 */
interface EmbeddingPrefix {
  cidr: [ipaddr.IPv6, number];
  name: string;
  /** Where the IPv4 address sits: the byte offset of its first octet in the 16-byte address. */
  ipv4At: number;
  judgeEmbedded: boolean;
}

const prefix = (cidr: string, name: string, ipv4At: number, judgeEmbedded: boolean): EmbeddingPrefix => ({
  cidr: ipaddr.IPv6.parseCIDR(cidr),
  name,
  ipv4At,
  judgeEmbedded,
});

/** Most specific first: `::ffff:0:0/96` and `::ffff:0:0:0/96` lie inside `::/96`'s neighbourhood, not inside it. */
const EMBEDDING_PREFIXES: EmbeddingPrefix[] = [
  prefix('::ffff:0:0/96', 'IPv4-mapped ::ffff:0:0/96', 12, true),
  prefix('::ffff:0:0:0/96', 'IPv4-translated ::ffff:0:0:0/96 (SIIT)', 12, false),
  prefix('64:ff9b::/96', 'NAT64 64:ff9b::/96', 12, true),
  prefix('64:ff9b:1::/48', 'local-use NAT64 64:ff9b:1::/48 (the operator’s own translator)', 12, false),
  prefix('2002::/16', '6to4 2002::/16 (deprecated relay tunnel)', 2, false),
  prefix('2001::/32', 'Teredo 2001::/32 (tunnel through a relay)', 4, false),
];
/** IPv4-compatible `::a.b.c.d` (deprecated by RFC 4291); `::` and `::1` are named by their own ranges. */
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

function ipv4Inside(address: ipaddr.IPv6, offset: number): ipaddr.IPv4 {
  const bytes = address.toByteArray();
  return new ipaddr.IPv4(bytes.slice(offset, offset + 4));
}

function ipv4Refusal(address: ipaddr.IPv4): string | null {
  if (METADATA_ADDRESSES.has(address.toString())) return `the cloud metadata address ${address.toString()}`;
  const range = address.range();
  if (range === 'unicast') return null;
  return IPV4_RANGE_REASONS[range] ?? `IPv4 range ${range}`;
}

function ipv6Refusal(address: ipaddr.IPv6): string | null {
  for (const embedding of EMBEDDING_PREFIXES) {
    if (!address.match(embedding.cidr)) continue;
    const inside = ipv4Inside(address, embedding.ipv4At);
    if (!embedding.judgeEmbedded) return `${embedding.name}, carrying ${inside.toString()}`;
    const refusal = ipv4Refusal(inside);
    return refusal === null ? null : `${embedding.name} of ${inside.toString()}: ${refusal}`;
  }
  if (METADATA_ADDRESSES.has(address.toString())) return `the cloud metadata address ${address.toString()}`;
  const range = address.range();
  if (range === 'unspecified' || range === 'loopback') return IPV6_RANGE_REASONS[range];
  if (address.match(IPV4_COMPATIBLE)) return `IPv4-compatible ::/96 (deprecated), carrying ${ipv4Inside(address, 12).toString()}`;
  if (range === 'unicast') return null;
  return IPV6_RANGE_REASONS[range] ?? `IPv6 range ${range}`;
}

/**
 * Why an address may not receive webhooks, or null for a public unicast address. Loopback,
 * private, link-local, CGNAT, metadata, multicast, reserved and every IPv6 spelling that reaches
 * one of them (or a tunnel or translator whose far end can't be judged) are refused.
 */
export function addressRefusal(address: string): string | null {
  const text = withHexTail(address);
  if (!ipaddr.isValid(text)) return 'not an IP address';
  const parsed = ipaddr.parse(text);
  return parsed.kind() === 'ipv4' ? ipv4Refusal(parsed as ipaddr.IPv4) : ipv6Refusal(parsed as ipaddr.IPv6);
}

/**
 * An IPv6 address whose last 32 bits are written as a dotted quad, rewritten in hex: ipaddr.js
 * reads `::127.0.0.1` as `::ffff:127.0.0.1`, but it is `::7f00:1` (IPv4-compatible), and
 * getaddrinfo prints such answers with a dotted tail.
 */
function withHexTail(address: string): string {
  const match = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(%.*)?$/.exec(address);
  if (!match) return address;
  const octets = match.slice(2, 6).map(Number);
  if (octets.some((octet) => octet > 255)) return address;
  const hex = (high: number, low: number) => ((high << 8) | low).toString(16);
  return `${match[1]}${hex(octets[0], octets[1])}:${hex(octets[2], octets[3])}${match[6] ?? ''}`;
}

/** True for every address `addressRefusal` gives a reason for. */
export function isForbiddenAddress(address: string): boolean {
  return addressRefusal(address) !== null;
}

export class UnsafeWebhookUrlError extends Error {}

/** Refused only because the host is not public: a deployment can allow that (dev, tests). */
export class PrivateWebhookUrlError extends UnsafeWebhookUrlError {}

/** The host of a URL without IPv6 brackets; the WHATWG parser already turned 0x7f.1, 2130706433 and 0177.0.0.1 into dotted form. */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * Checks what can be checked without the network: http(s), https in live mode, no credentials,
 * and no forbidden IP literal. Returns the parsed URL; throws UnsafeWebhookUrlError with a reason.
 */
export function checkWebhookUrlSyntax(value: string, mode: ApiMode, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UnsafeWebhookUrlError('url must be an absolute http(s) URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UnsafeWebhookUrlError('url must use http or https');
  if (mode === 'live' && url.protocol !== 'https:') throw new UnsafeWebhookUrlError('url must use https in live mode');
  if (url.username || url.password) throw new UnsafeWebhookUrlError('url must not contain credentials');
  const host = hostOf(url);
  if (!allowPrivate) {
    const refusal = ipaddr.isValid(host) ? addressRefusal(host) : null;
    if (refusal !== null) throw new PrivateWebhookUrlError(`url host is not a public address: ${refusal}`);
    if (host === 'localhost' || host.endsWith('.localhost')) throw new PrivateWebhookUrlError('url host is a loopback name');
  }
  return url;
}

/**
 * Resolves the host and refuses it if any address is forbidden. A name that does not resolve
 * now is accepted at registration: the send-time check guards it again.
 */
export async function checkResolvedHost(host: string): Promise<void> {
  if (ipaddr.isValid(host)) return;
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host, { all: true, verbatim: true });
  } catch {
    return;
  }
  for (const entry of addresses) {
    const refusal = addressRefusal(entry.address);
    if (refusal !== null) throw new PrivateWebhookUrlError(`url host resolves to ${entry.address}, not a public address: ${refusal}`);
  }
}
