import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { billingMonth } from '../../src/billing/plans';
import { withinSizeTolerance } from '../../src/files/files.service';
import { attachmentDisposition } from '../../src/files/storage/content-disposition';
import { LocalStorageSigner, loadLocalStorageSecret } from '../../src/files/storage/local-storage-token';

describe('local storage tokens', () => {
  const signer = new LocalStorageSigner(Buffer.from('secret'));
  const key = 'mer_01/live/file_01';
  const grant = { method: 'GET' as const, objectKey: key, expiresAt: 1_000_000, contentType: 'application/pdf', fileName: 'a.pdf' };

  it('accepts its own token until the expiry instant, for that method and object only', () => {
    const token = signer.sign(grant);
    expect(signer.verify(token, 'GET', key, new Date(999_999))).toEqual({ valid: true, grant });
    expect(signer.verify(token, 'GET', key, new Date(1_000_000))).toEqual({ valid: false, reason: 'expired' });
    expect(signer.verify(token, 'PUT', key, new Date(0))).toEqual({ valid: false, reason: 'invalid' });
    expect(signer.verify(token, 'GET', 'mer_01/live/file_02', new Date(0))).toEqual({ valid: false, reason: 'invalid' });
  });

  it('refuses other secrets, altered payloads and junk', () => {
    const token = signer.sign(grant);
    expect(new LocalStorageSigner(Buffer.from('other')).verify(token, 'GET', key, new Date(0)).valid).toBe(false);
    const [, signature] = token.split('.');
    const altered = `${Buffer.from(JSON.stringify({ ...grant, expiresAt: 9e15 })).toString('base64url')}.${signature}`;
    expect(signer.verify(altered, 'GET', key, new Date(0)).valid).toBe(false);
    for (const junk of [undefined, '', 'a', 'a.b.c', `${token}x`, ['array']]) {
      expect(signer.verify(junk, 'GET', key, new Date(0)).valid).toBe(false);
    }
  });

  it('generates the secret once into DATA_DIR/secrets and reuses it', () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'eh-secret-'));
    try {
      const first = loadLocalStorageSecret(undefined, directory);
      expect(first.length).toBeGreaterThanOrEqual(32);
      expect(loadLocalStorageSecret(undefined, directory).equals(first)).toBe(true);
      expect(loadLocalStorageSecret('configured', directory).toString()).toBe('configured');
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe('file rules', () => {
  it('size tolerance is exactly 10% either way', () => {
    expect([900, 1000, 1100].map((actual) => withinSizeTolerance(1000, actual))).toEqual([true, true, true]);
    expect([899, 1101].map((actual) => withinSizeTolerance(1000, actual))).toEqual([false, false]);
    expect(withinSizeTolerance(1, 1)).toBe(true);
    expect(withinSizeTolerance(1, 2)).toBe(false);
  });

  it('Content-Disposition: ASCII names plain, others with an ASCII fallback and filename*', () => {
    expect(attachmentDisposition('guide.pdf')).toBe('attachment; filename="guide.pdf"');
    expect(attachmentDisposition('say "hi".txt')).toBe('attachment; filename="say \\"hi\\".txt"');
    expect(attachmentDisposition('日本語.pdf')).toBe(`attachment; filename="___.pdf"; filename*=UTF-8''%E6%97%A5%E6%9C%AC%E8%AA%9E.pdf`);
  });

  it('bandwidth months are calendar months in UTC', () => {
    expect(billingMonth(new Date('2026-11-30T23:59:59.999Z'))).toBe('2026-11');
    expect(billingMonth(new Date('2026-12-01T00:00:00.000+01:00'))).toBe('2026-11');
    expect(billingMonth(new Date('2026-12-01T00:00:00.000Z'))).toBe('2026-12');
  });
});
