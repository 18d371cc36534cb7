import { Webhook } from 'standardwebhooks';
import { generateWebhookSecret, signWebhook, webhookHeaders } from '../../src/webhooks/webhook-signature';

describe('webhook signing (checked against the standardwebhooks package)', () => {
  it('generates whsec_ secrets of 32 random bytes', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });

  it('produces the signature the reference implementation produces and accepts', () => {
    const secret = generateWebhookSecret();
    const body = JSON.stringify({ id: 'evt_1', type: 'entitlement.revoked' });
    const timestamp = Math.floor(Date.now() / 1000);
    const reference = new Webhook(secret);
    expect(signWebhook(secret, 'evt_1', timestamp, body)).toBe(reference.sign('evt_1', new Date(timestamp * 1000), body));
    expect(reference.verify(body, webhookHeaders([secret], 'evt_1', timestamp, body))).toEqual(JSON.parse(body));
  });

  it('carries one signature per secret, space-separated, each verifying alone', () => {
    const [current, previous] = [generateWebhookSecret(), generateWebhookSecret()];
    const body = '{"a":1}';
    const headers = webhookHeaders([current, previous], 'evt_2', Math.floor(Date.now() / 1000), body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(current).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(previous).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow();
  });
});
