import { lookup as dnsLookup } from 'node:dns';
import { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import type { ApiMode } from '../database/tenant';
import { webhookHeaders } from './webhook-signature';
import { addressRefusal, checkWebhookUrlSyntax, UnsafeWebhookUrlError } from './webhook-url-guard';

export const SEND_TIMEOUT_MILLISECONDS = 10_000;
/** What a delivery keeps of the answer's body; decoded, it has at most as many characters. */
export const RESPONSE_BODY_LIMIT_BYTES = 1024;

export interface SendOutcome {
  statusCode: number | null;
  error: string | null;
  durationMilliseconds: number;
  responseBody: string | null;
}

/** What signing and sending to an endpoint needs of it. */
export interface SigningEndpoint {
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  private_urls_allowed: boolean;
}

/** 2xx is success (Standard Webhooks); redirects are not followed. */
export const isSuccessStatus = (statusCode: number | null): boolean => statusCode !== null && statusCode >= 200 && statusCode < 300;

/**
 * Resolves every address of the host and refuses the connection if any is forbidden; the
 * socket then connects only to the addresses checked here (no second resolution to rebind).
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
  dnsLookup(hostname, { family, all: true, verbatim: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const forbidden = addresses.find((entry) => addressRefusal(entry.address) !== null);
    if (forbidden) {
      const refusal: NodeJS.ErrnoException = new Error(`${hostname} resolves to a forbidden address (${forbidden.address}: ${addressRefusal(forbidden.address)})`);
      refusal.code = 'EFORBIDDENADDRESS';
      return callback(refusal, []);
    }
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
};

/** Reads at most the first 1 KiB of a body, then lets the rest go (breaking the loop destroys the stream); null for none. */
async function readBodyStart(body: AsyncIterable<Uint8Array>): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(Buffer.from(chunk));
    size += chunk.byteLength;
    if (size >= RESPONSE_BODY_LIMIT_BYTES) break;
  }
  if (size === 0) return null;
  return new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT_BYTES));
}

function describeError(error: unknown, timedOut: boolean): string {
  if (timedOut) return `timed out after ${SEND_TIMEOUT_MILLISECONDS / 1000} s`;
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return cause instanceof Error ? cause.message : String(cause);
}

/**
 * POSTs one signed webhook: no redirects followed, a hard timeout, and only public addresses
 * unless the endpoint was registered where private URLs are allowed (its stored decision).
 */
export class WebhookSender {
  private readonly publicOnly = new Agent({ connect: { lookup: guardedLookup }, keepAliveTimeout: 4_000 });
  private readonly anyAddress = new Agent({ keepAliveTimeout: 4_000 });

  /**
   * undici's `request` rather than `fetch`: fetch builds WHATWG requests, streams and a transferable
   * timeout signal per call, a quarter of the dispatcher's CPU at 500 deliveries a second. It
   * follows no redirects either. One timer bounds the whole exchange, body included.
   */
  async send(url: string, headers: Record<string, string>, body: string, allowPrivateAddresses: boolean): Promise<SendOutcome> {
    const started = performance.now();
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), SEND_TIMEOUT_MILLISECONDS);
    try {
      const response = await request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'EntitlementHub-Webhooks/1.0', ...headers },
        body,
        signal: abort.signal,
        dispatcher: allowPrivateAddresses ? this.anyAddress : this.publicOnly,
      });
      const responseBody = await readBodyStart(response.body);
      const redirected = response.statusCode >= 300 && response.statusCode < 400;
      const location = response.headers.location;
      return {
        statusCode: response.statusCode,
        error: redirected ? `redirect to ${(Array.isArray(location) ? location[0] : location) ?? '(no location)'} not followed` : null,
        durationMilliseconds: performance.now() - started,
        responseBody,
      };
    } catch (error) {
      return { statusCode: null, error: describeError(error, abort.signal.aborted), durationMilliseconds: performance.now() - started, responseBody: null };
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Signs the message with the endpoint's secrets (the previous one too while its rotation overlap
   * lasts) and sends it, after the registration-time URL check again (IP literals, localhost,
   * scheme; names are checked as they resolve), under the endpoint's stored decision on private
   * URLs, not this instance's, so every instance treats its deliveries alike.
   */
  async sendSigned(endpoint: SigningEndpoint, mode: ApiMode, messageId: string, body: string, at: Date): Promise<SendOutcome> {
    const secrets = [endpoint.secret];
    if (endpoint.previous_secret && endpoint.previous_secret_expires_at && endpoint.previous_secret_expires_at > at) secrets.push(endpoint.previous_secret);
    const headers = webhookHeaders(secrets, messageId, Math.floor(at.getTime() / 1000), body);
    try {
      checkWebhookUrlSyntax(endpoint.url, mode, endpoint.private_urls_allowed);
    } catch (error) {
      if (!(error instanceof UnsafeWebhookUrlError)) throw error;
      return { statusCode: null, error: error.message, durationMilliseconds: 0, responseBody: null };
    }
    return this.send(endpoint.url, headers, body, endpoint.private_urls_allowed);
  }

  async close(): Promise<void> {
    await Promise.all([this.publicOnly.close(), this.anyAddress.close()]);
  }
}
