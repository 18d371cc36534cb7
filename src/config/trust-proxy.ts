import proxyaddr from 'proxy-addr';

/** Which forwarding header the trusted proxies write (TRUST_PROXY_HEADER). */
export type ForwardingHeader = 'x-forwarded-for' | 'forwarded';

/**
 * Whether the hop at `address`, `hop` places from us (0 = the socket's peer), may say who its
 * client is. proxy-addr's signature, so its compiled CIDR matcher is used as it is.
 */
export type HopTrust = (address: string, hop: number) => boolean;

/** TRUST_PROXY, parsed: which hops are trusted, and the header they write. */
export interface TrustProxy {
  /** The setting as given, for the start-up summary. */
  description: string;
  trusts: HopTrust;
  header: ForwardingHeader;
}

const MAX_HOPS = 32;

/**
 * Parses TRUST_PROXY (DESIGN §15): a hop count (`1`: the socket's peer is the only proxy), or a
 * comma-separated list of `loopback`, `linklocal`, `uniquelocal`, addresses and CIDRs. Throws a
 * message naming what is wrong; `true` (trust everything) is refused on purpose: it lets any
 * client choose its own address.
 */
export function parseTrustProxy(value: string, header: ForwardingHeader): TrustProxy {
  const text = value.trim();
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops < 1 || hops > MAX_HOPS) throw new Error(`a hop count must be between 1 and ${MAX_HOPS}`);
    return { description: `${hops} hop${hops === 1 ? '' : 's'}`, trusts: (_address, hop) => hop < hops, header };
  }
  const entries = text.split(',').map((entry) => entry.trim());
  if (entries.some((entry) => entry === '')) throw new Error('has an empty entry');
  // proxy-addr knows the three names and refuses any other entry that is not an address or a CIDR.
  for (const entry of entries) {
    try {
      proxyaddr.compile(entry);
    } catch {
      throw new Error(`"${entry}" is not loopback, linklocal, uniquelocal, an IP address or a CIDR`);
    }
  }
  return { description: entries.join(','), trusts: proxyaddr.compile(entries), header };
}
