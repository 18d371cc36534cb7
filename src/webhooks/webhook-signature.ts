import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;
/** The length of every secret: the prefix and the base64 of its bytes (with padding). */
export const WEBHOOK_SECRET_LENGTH = SECRET_PREFIX.length + 4 * Math.ceil(SECRET_BYTES / 3);

/** `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** `v1,` + base64(HMAC-SHA256(base64-decoded secret, "{id}.{timestamp}.{body}")). */
export function signWebhook(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  const signature = createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${signature}`;
}

/** The Standard Webhooks headers; several secrets (rotation overlap) give space-separated signatures. */
export function webhookHeaders(secrets: string[], messageId: string, timestampSeconds: number, body: string): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((secret) => signWebhook(secret, messageId, timestampSeconds, body)).join(' '),
  };
}
