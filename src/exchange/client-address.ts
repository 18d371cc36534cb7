import parseForwarded from 'forwarded-parse';
import ipaddr from 'ipaddr.js';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import proxyaddr from 'proxy-addr';
import type { TrustProxy } from '../config/trust-proxy';

/** Who sent a request, as far as the trusted hops tell (DESIGN §15). */
export interface RequestClient {
  /** The client's address, canonical (IPv4-mapped IPv6 as IPv4, IPv6 compressed and lowercase). */
  address: string;
  /** Whether the client reached us over https: a TLS socket, or a trusted hop saying so. */
  secure: boolean;
}

/** One hop of the forwarding chain, nearest first: the address and the protocol its client used, if said. */
interface Hop {
  address: string;
  proto?: string;
}

const CLIENT = Symbol('requestClient');
type WithClient = IncomingMessage & { [CLIENT]?: RequestClient };

/**
 * An address as forwarding headers write it, canonical, or null when it is none: brackets and a
 * port (`[2001:db8::1]:4711`, `192.0.2.1:80`) are dropped; names, `unknown`, RFC 7239's
 * obfuscated identifiers (`_hidden`) and anything else that is not an IP address give null.
 */
export function canonicalAddress(text: string | undefined): string | null {
  if (!text) return null;
  let value = text.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(value);
  if (bracketed) value = bracketed[1];
  else if (/^[\d.]+:\d{1,5}$/.test(value)) value = value.slice(0, value.indexOf(':'));
  if (!ipaddr.IPv4.isValidFourPartDecimal(value) && !ipaddr.IPv6.isValid(value)) return null;
  return ipaddr.process(value).toString();
}

/** The socket's peer, canonical; '' when the socket has already gone. */
function socketAddress(request: IncomingMessage): string {
  return canonicalAddress(request.socket.remoteAddress) ?? request.socket.remoteAddress ?? '';
}

/** X-Forwarded-For's hops, nearest first, as proxy-addr reads them (Express's own reading). */
function xForwardedForHops(request: IncomingMessage): Hop[] {
  const [, ...addresses] = proxyaddr.all(request);
  return addresses.map((address) => ({ address }));
}

/** X-Forwarded-Proto's first value: the protocol the outermost proxy's client used (as Express reads it). */
function xForwardedProto(request: IncomingMessage): string | undefined {
  const header = request.headers['x-forwarded-proto'];
  return typeof header === 'string' ? header.split(',')[0].trim().toLowerCase() : undefined;
}

/** RFC 7239 `Forwarded`'s hops, nearest first, each with its own `proto=`; a malformed header names no hop. */
function forwardedHops(request: IncomingMessage): Hop[] {
  const header = request.headers.forwarded;
  if (typeof header !== 'string' || header === '') return [];
  let elements: Record<string, string>[];
  try {
    elements = parseForwarded(header);
  } catch {
    return [];
  }
  return elements.reverse().map((element) => ({ address: element.for ?? '', proto: element.proto?.toLowerCase() }));
}

/**
 * The client of a request: with TRUST_PROXY unset, the socket's peer, whatever the headers say.
 * With it, the chain is walked from the socket outwards through trusted hops only, as proxy-addr
 * (and so Express) does: the client is the first hop that is not trusted, or the farthest one
 * named. A hop that writes something other than an IP address ends the walk at itself: it is
 * trusted, and what it wrote can't be counted or logged as anybody.
 *
 * Only the header TRUST_PROXY_HEADER names is read: a proxy that appends to one of the two
 * passes the other through from the client untouched, so reading both would let a client
 * choose its own address.
 */
export function resolveClient(request: IncomingMessage, trustProxy: TrustProxy | null): RequestClient {
  const socket = socketAddress(request);
  const encrypted = (request.socket as Partial<TLSSocket>).encrypted === true;
  if (!trustProxy || !trustProxy.trusts(socket, 0)) return { address: socket, secure: encrypted };
  const forwarded = trustProxy.header === 'forwarded';
  const hops = forwarded ? forwardedHops(request) : xForwardedForHops(request);
  let client: Hop = { address: socket };
  for (let index = 0; index < hops.length; index += 1) {
    const address = canonicalAddress(hops[index].address);
    if (address === null) break;
    client = { address, proto: hops[index].proto };
    if (!trustProxy.trusts(address, index + 1)) break;
  }
  // The client's protocol, as a trusted hop says it: Forwarded's proto= of the element written
  // about the client (else the nearest element's), or X-Forwarded-Proto.
  const proto = forwarded ? (client.proto ?? hops[0]?.proto) : xForwardedProto(request);
  return { address: client.address, secure: encrypted || proto === 'https' };
}

/**
 * Resolves each request's client once (the request gate calls `of` first thing) and keeps it on
 * the request, so rate limits, failure counters, the request log and download records all see
 * the same address.
 */
export class ClientAddressResolver {
  constructor(private readonly trustProxy: TrustProxy | null) {}

  of(request: IncomingMessage): RequestClient {
    const target = request as WithClient;
    return (target[CLIENT] ??= resolveClient(request, this.trustProxy));
  }
}

/** The client the request gate resolved; before it (never on a served request), the socket's peer alone. */
export function clientOf(request: IncomingMessage): RequestClient {
  return (request as WithClient)[CLIENT] ?? resolveClient(request, null);
}
