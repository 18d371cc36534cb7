import { signWebhook, verifyWebhook, WebhookVerificationError } from '@entitlement-delivery/sdk';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { generateWebhookSecret, webhookHeaders } from '../../src/webhooks/webhook-signature';
import { rejectionReason } from '../support/rejection-reason';

const refusal = (promise: Promise<unknown>) => rejectionReason(promise, WebhookVerificationError);

/**
 * The SDK's webhooks.verify against the reference implementation of Standard Webhooks (the
 * `standardwebhooks` package) and the service's own signer. Real deliveries are verified in
 * test/e2e/sdk.e2e-spec.ts.
 */
const event = { id: 'evt_1', type: 'entitlement.created', created_at: '2026-01-01T00:00:00.000Z', livemode: false, data: { id: 'ent_1' } };
const body = JSON.stringify(event);
const now = new Date('2026-03-01T12:00:00Z');
const nowSeconds = Math.floor(now.getTime() / 1000);

function signedByReference(secret: string, payload: string, at: Date = now): Record<string, string> {
  return { 'webhook-id': 'evt_1', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(secret).sign('evt_1', at, payload) };
}

describe('SDK webhooks.verify', () => {
  const secret = generateWebhookSecret();

  it('accepts what standardwebhooks signs and returns the event, from a string, bytes, or Headers', async () => {
    const headers = signedByReference(secret, body);
    await expect(verifyWebhook(body, headers, secret, { now })).resolves.toEqual(event);
    await expect(verifyWebhook(new TextEncoder().encode(body), new Headers(headers), secret, { now })).resolves.toEqual(event);
    // Node's request.headers may repeat a header as an array.
    await expect(verifyWebhook(body, { ...headers, 'webhook-id': ['evt_1'] }, secret, { now })).resolves.toEqual(event);
  });

  it("accepts the service's own deliveries, including one signed with two secrets during a rotation", async () => {
    const previous = generateWebhookSecret();
    const headers = webhookHeaders([previous, secret], 'evt_1', nowSeconds, body);
    await expect(verifyWebhook(body, headers, secret, { now })).resolves.toEqual(event);
    await expect(verifyWebhook(body, headers, previous, { now })).resolves.toEqual(event);
    // A receiver rotating its own secret may try both.
    await expect(verifyWebhook(body, webhookHeaders([secret], 'evt_1', nowSeconds, body), [previous, secret], { now })).resolves.toEqual(event);
  });

  it('refuses a changed body, another secret, another id, a stale or future timestamp, and missing headers', async () => {
    const headers = signedByReference(secret, body);
    expect(await refusal(verifyWebhook(body.replace('evt_1', 'evt_2'), headers, secret, { now }))).toBe('INVALID_SIGNATURE');
    expect(await refusal(verifyWebhook(body, headers, generateWebhookSecret(), { now }))).toBe('INVALID_SIGNATURE');
    expect(await refusal(verifyWebhook(body, { ...headers, 'webhook-id': 'evt_2' }, secret, { now }))).toBe('INVALID_SIGNATURE');
    expect(await refusal(verifyWebhook(body, headers, secret, { now: new Date(now.getTime() + 301_000) }))).toBe('TIMESTAMP_OUT_OF_TOLERANCE');
    expect(await refusal(verifyWebhook(body, headers, secret, { now: new Date(now.getTime() - 301_000) }))).toBe('TIMESTAMP_OUT_OF_TOLERANCE');
    expect(await refusal(verifyWebhook(body, { 'webhook-id': 'evt_1' }, secret, { now }))).toBe('MISSING_HEADERS');
    expect(await refusal(verifyWebhook(body, headers, 'whsec_***', { now }))).toBe('INVALID_SECRET');
  });

  it('agrees with standardwebhooks on every payload, signature and tampering (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 300 }), fc.string({ minLength: 1, maxLength: 40 }), fc.boolean(), async (payloadText, messageId, tamper) => {
        const payload = JSON.stringify({ text: payloadText });
        const at = now;
        const headers = {
          'webhook-id': messageId,
          'webhook-timestamp': String(nowSeconds),
          'webhook-signature': new Webhook(secret).sign(messageId, at, payload),
        };
        const received = tamper ? JSON.stringify({ text: `${payloadText}!` }) : payload;
        let referenceAccepts: boolean;
        try {
          // The reference checks the timestamp against the real clock: give it one that is now.
          const fresh = { ...headers, 'webhook-timestamp': String(Math.floor(Date.now() / 1000)) };
          fresh['webhook-signature'] = new Webhook(secret).sign(messageId, new Date(Number(fresh['webhook-timestamp']) * 1000), payload);
          new Webhook(secret).verify(received, fresh);
          referenceAccepts = true;
        } catch {
          referenceAccepts = false;
        }
        const oursAccepts = await verifyWebhook(received, headers, secret, { now }).then(
          () => true,
          () => false,
        );
        expect(oursAccepts).toBe(referenceAccepts);
        expect(oursAccepts).toBe(!tamper);
      }),
      { numRuns: 150 },
    );
  });
});

describe('SDK webhooks.sign (test deliveries, like stripe-node generateTestHeaderString)', () => {
  it('signs as Standard Webhooks does: the reference library and the SDK verify it, another secret does not', async () => {
    const secret = generateWebhookSecret();
    const signed = await signWebhook(event, secret, { id: 'evt_1', timestamp: now });
    expect(signed.body).toBe(body);
    expect(signed.headers).toEqual({ 'webhook-id': 'evt_1', 'webhook-timestamp': String(nowSeconds), 'webhook-signature': expect.stringMatching(/^v1,/) });
    // The same bytes the service itself would send.
    expect(signed.headers).toEqual(webhookHeaders([secret], 'evt_1', nowSeconds, body));
    await expect(verifyWebhook(signed.body, signed.headers, secret, { now })).resolves.toEqual(event);
    expect(await refusal(verifyWebhook(signed.body, signed.headers, generateWebhookSecret(), { now }))).toBe('INVALID_SIGNATURE');
  });

  it('defaults to a fresh id and the current time, which verifies now', async () => {
    const secret = generateWebhookSecret();
    const signed = await signWebhook(body, secret);
    expect(signed.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    await expect(verifyWebhook(signed.body, signed.headers, secret)).resolves.toEqual(event);
    expect(new Webhook(secret).verify(signed.body, signed.headers)).toEqual(event);
  });
});
