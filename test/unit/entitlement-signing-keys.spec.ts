import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { jwtVerify, createLocalJWKSet, SignJWT } from 'jose';
import { EntitlementSigningKeys } from '../../src/entitlements/tokens/entitlement-signing-keys';
import { parseEd25519PrivateKey } from '../../src/config/ed25519-key';

const HOUR = 3_600_000;

function ed25519Pem(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
}

describe('EntitlementSigningKeys', () => {
  let dataDirectory: string;
  const options = () => ({ configuredKey: undefined, dataDirectory, tokenTtlMilliseconds: HOUR });

  beforeEach(() => {
    dataDirectory = mkdtempSync(path.join(tmpdir(), 'eh-keys-'));
  });
  afterEach(() => rmSync(dataDirectory, { recursive: true, force: true }));

  it('generates an Ed25519 key into DATA_DIR/secrets at first start, readable by its owner only, and keeps it', async () => {
    const first = await EntitlementSigningKeys.load(options());
    const file = path.join(dataDirectory, 'secrets', 'entitlement-signing-key.jwk');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ kty: 'OKP', crv: 'Ed25519', d: expect.any(String) });
    const again = await EntitlementSigningKeys.load(options());
    expect((await again.signingKey()).kid).toBe((await first.signingKey()).kid);
    const { keys } = await again.jwks();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toEqual({ kty: 'OKP', crv: 'Ed25519', x: expect.any(String), kid: (await first.signingKey()).kid, alg: 'EdDSA', use: 'sig' });
    expect(keys[0]).not.toHaveProperty('d');
  });

  it('rotation publishes the new key first and the old one for a token lifetime, then drops it', async () => {
    const start = new Date('2026-03-01T12:00:00.000Z');
    const before = await EntitlementSigningKeys.load(options(), () => start);
    const oldKey = await before.signingKey();
    const oldToken = await new SignJWT({ id: 'ent_1' }).setProtectedHeader({ alg: 'EdDSA', kid: oldKey.kid }).sign(oldKey.privateKey);

    const rotated = await EntitlementSigningKeys.rotate(options(), start);
    expect(rotated.retired_kid).toBe(oldKey.kid);
    expect(rotated.kid).not.toBe(oldKey.kid);
    expect(rotated.retired_key_published_until).toBe('2026-03-01T13:00:00.000Z');

    let now = new Date(start.getTime() + 59 * 60_000);
    const after = await EntitlementSigningKeys.load(options(), () => now);
    expect((await after.signingKey()).kid).toBe(rotated.kid);
    const published = await after.jwks();
    expect(published.keys.map((key) => key.kid)).toEqual([rotated.kid, oldKey.kid]);
    await expect(jwtVerify(oldToken, createLocalJWKSet(published))).resolves.toBeDefined();

    now = new Date(start.getTime() + HOUR + 1);
    expect((await after.jwks()).keys.map((key) => key.kid)).toEqual([rotated.kid]);
    // And a later start forgets it for good.
    const later = await EntitlementSigningKeys.load(options(), () => now);
    expect((await later.jwks()).keys.map((key) => key.kid)).toEqual([rotated.kid]);
  });

  it('treats a changed ENTITLEMENT_SIGNING_KEY as a rotation', async () => {
    const first = ed25519Pem();
    const second = ed25519Pem();
    const one = await EntitlementSigningKeys.load({ ...options(), configuredKey: first });
    const two = await EntitlementSigningKeys.load({ ...options(), configuredKey: second });
    const firstKid = (await one.signingKey()).kid;
    expect((await two.jwks()).keys.map((key) => key.kid)).toEqual([(await two.signingKey()).kid, firstKid]);
    // The same key on another instance gets the same kid (RFC 7638 thumbprint).
    const elsewhere = mkdtempSync(path.join(tmpdir(), 'eh-keys-'));
    try {
      const copy = await EntitlementSigningKeys.load({ configuredKey: second, dataDirectory: elsewhere, tokenTtlMilliseconds: HOUR });
      expect((await copy.signingKey()).kid).toBe((await two.signingKey()).kid);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('refuses a CLI rotation while the key comes from ENTITLEMENT_SIGNING_KEY', async () => {
    await expect(EntitlementSigningKeys.rotate({ ...options(), configuredKey: ed25519Pem() })).rejects.toThrow(/ENTITLEMENT_SIGNING_KEY is set/);
  });

  it('names the file when the stored key is damaged', async () => {
    await EntitlementSigningKeys.load(options());
    writeFileSync(path.join(dataDirectory, 'secrets', 'entitlement-signing-key.jwk'), 'not a key');
    await expect(EntitlementSigningKeys.load(options())).rejects.toThrow(/entitlement-signing-key\.jwk: must be an Ed25519 private key/);
  });
});

describe('parseEd25519PrivateKey', () => {
  it('accepts PKCS#8 PEM, with real or escaped newlines, and a private JWK', () => {
    const pem = ed25519Pem();
    expect(parseEd25519PrivateKey(pem).asymmetricKeyType).toBe('ed25519');
    expect(parseEd25519PrivateKey(pem.replace(/\n/g, '\\n')).asymmetricKeyType).toBe('ed25519');
    const jwk = JSON.stringify(generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' }));
    expect(parseEd25519PrivateKey(jwk).asymmetricKeyType).toBe('ed25519');
  });

  it('refuses other key types, public keys and garbage', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    expect(() => parseEd25519PrivateKey(rsa)).toThrow(/Ed25519 private key, not rsa/);
    const publicJwk = JSON.stringify(generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }));
    expect(() => parseEd25519PrivateKey(publicJwk)).toThrow(/Ed25519 private key/);
    expect(() => parseEd25519PrivateKey('hello')).toThrow(/PKCS#8 PEM/);
  });
});
