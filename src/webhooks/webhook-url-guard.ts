import ipaddr from 'ipaddr.js';
import { lookup } from 'node:dns/promises';
import type { ApiMode } from '../database/tenant';

/** Metadata services reachable from cloud instances, refused whatever their range says. */
const METADATA_ADDRESSES = ['169.254.169.254', 'fd00:ec2::254'];
/** Only globally routable unicast addresses may receive webhooks. */
const ALLOWED_RANGES = new Set(['unicast']);

export class UnsafeWebhookUrlError extends Error {}

/** Refused only because the host is not public: a deployment can allow that (dev, tests). */
export class PrivateWebhookUrlError extends UnsafeWebhookUrlError {}

/** True for loopback, private, link-local, CGNAT, metadata, multicast, reserved and other non-public addresses. */
export function isForbiddenAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  let parsed = ipaddr.parse(address);
  // ::ffff:127.0.0.1 and friends are IPv4 addresses in IPv6 clothing.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  if (METADATA_ADDRESSES.some((metadata) => ipaddr.parse(metadata).toNormalizedString() === parsed.toNormalizedString())) return true;
  return !ALLOWED_RANGES.has(parsed.range());
}

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
    if (ipaddr.isValid(host) && isForbiddenAddress(host)) {
      throw new PrivateWebhookUrlError('url host is a loopback, private, link-local or reserved address');
    }
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
  if (addresses.some((entry) => isForbiddenAddress(entry.address))) {
    throw new PrivateWebhookUrlError('url host resolves to a loopback, private, link-local or reserved address');
  }
}
