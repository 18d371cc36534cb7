import type { components } from './generated/openapi';

/** The body of every webhook delivery: the event, as GET /v1/events/{id} returns it. */
export type WebhookEvent = components['schemas']['EventResponseDto'];

/** A Fetch `Headers`, or Node's `request.headers` (lower-case names, string or string[] values). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export type WebhookVerificationFailure = 'MISSING_HEADERS' | 'TIMESTAMP_OUT_OF_TOLERANCE' | 'INVALID_SIGNATURE' | 'INVALID_SECRET' | 'INVALID_BODY';

/** The delivery is not one this endpoint's secret signed (or is too old to trust): answer 400 and drop it. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';

  constructor(
    readonly reason: WebhookVerificationFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface VerifyWebhookOptions {
  /** How far the webhook-timestamp may be from now, in seconds (default 300, as Standard Webhooks). */
  toleranceSeconds?: number;
  /** "Now", for tests. */
  now?: Date;
}

const SECRET_PREFIX = 'whsec_';
const DEFAULT_TOLERANCE_SECONDS = 300;
const encoder = new TextEncoder();

function header(headers: WebhookHeaders, name: string): string | null {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name);
  const record = headers as Record<string, string | string[] | undefined>;
  const value = record[name] ?? Object.entries(record).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

function base64Bytes(value: string): Uint8Array | null {
  try {
    return Uint8Array.from(atob(value), (character) => character.charCodeAt(0));
  } catch {
    return null;
  }
}

function bytesOf(body: string | Uint8Array | ArrayBuffer): Uint8Array {
  if (typeof body === 'string') return encoder.encode(body);
  return body instanceof Uint8Array ? body : new Uint8Array(body);
}

/** The signed content, `{webhook-id}.{webhook-timestamp}.{body}`, with the body's bytes as received. */
function signedContent(messageId: string, timestamp: string, body: Uint8Array): Uint8Array {
  const prefix = encoder.encode(`${messageId}.${timestamp}.`);
  const content = new Uint8Array(prefix.length + body.length);
  content.set(prefix, 0);
  content.set(body, prefix.length);
  return content;
}

export interface SignWebhookOptions {
  /** webhook-id; a fresh `msg_…` by default. */
  id?: string;
  /** When it was "sent" (default now): a test of the tolerance passes an old one. */
  timestamp?: Date;
}

function base64Of(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

/**
 * Signs a body as the service signs a delivery (Standard Webhooks: `v1,` HMAC-SHA256 of
 * `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's `whsec_…` secret) and returns the
 * three headers to send with it: for tests of your webhook handler, like stripe-node's
 * generateTestHeaderString. Pass the body as the exact string you will send; an object is
 * serialized with JSON.stringify first (and `body` returns what was signed).
 */
export async function signWebhook(
  payload: string | object,
  secret: string,
  options: SignWebhookOptions = {},
): Promise<{ body: string; headers: Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> }> {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const messageId = options.id ?? `msg_${globalThis.crypto.randomUUID().replace(/-/g, '')}`;
  const timestamp = String(Math.floor((options.timestamp ?? new Date()).getTime() / 1000));
  const keyBytes = base64Bytes(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);
  if (!keyBytes || keyBytes.length === 0) throw new WebhookVerificationError('INVALID_SECRET', 'The secret is not a whsec_ base64 secret');
  const key = await globalThis.crypto.subtle.importKey('raw', keyBytes as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const signature = new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, signedContent(messageId, timestamp, encoder.encode(body)) as BufferSource));
  return { body, headers: { 'webhook-id': messageId, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${base64Of(signature)}` } };
}

/**
 * Verifies a webhook delivery as Standard Webhooks defines it and returns its event: the
 * `webhook-signature` header must hold a `v1,` HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}`
 * under the endpoint's secret (`whsec_…`; pass several while you rotate), and the timestamp must be
 * within `toleranceSeconds` of now. Pass the body exactly as received (the raw string or bytes, not
 * re-serialized JSON). Uses Web Crypto: Node ≥ 20, browsers, edge runtimes. Throws
 * WebhookVerificationError; de-duplicate on `event.id` (also `webhook-id`), as a retry resends it.
 */
export async function verifyWebhook(
  body: string | Uint8Array | ArrayBuffer,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const messageId = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!messageId || !timestamp || !signatures) {
    throw new WebhookVerificationError('MISSING_HEADERS', 'The webhook-id, webhook-timestamp and webhook-signature headers are required');
  }
  const sentAt = Number(timestamp);
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (!/^\d+$/.test(timestamp) || Math.abs(now - sentAt) > tolerance) {
    throw new WebhookVerificationError('TIMESTAMP_OUT_OF_TOLERANCE', `webhook-timestamp is not within ${tolerance} s of now`);
  }
  const bytes = bytesOf(body);
  const content = signedContent(messageId, timestamp, bytes);
  const candidates = signatures
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => base64Bytes(entry.slice(3)))
    .filter((signature): signature is Uint8Array => signature !== null);
  for (const candidateSecret of typeof secret === 'string' ? [secret] : secret) {
    const keyBytes = base64Bytes(candidateSecret.startsWith(SECRET_PREFIX) ? candidateSecret.slice(SECRET_PREFIX.length) : candidateSecret);
    if (!keyBytes || keyBytes.length === 0) throw new WebhookVerificationError('INVALID_SECRET', 'The secret is not a whsec_ base64 secret');
    const key = await globalThis.crypto.subtle.importKey('raw', keyBytes as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    for (const signature of candidates) {
      // Web Crypto's verify compares in constant time.
      if (await globalThis.crypto.subtle.verify('HMAC', key, signature as BufferSource, content as BufferSource)) {
        try {
          return JSON.parse(new TextDecoder().decode(bytes)) as WebhookEvent;
        } catch {
          throw new WebhookVerificationError('INVALID_BODY', 'The signed body is not JSON');
        }
      }
    }
  }
  throw new WebhookVerificationError('INVALID_SIGNATURE', 'No webhook-signature matches the body under this secret');
}
