import { createPrivateKey, KeyObject } from 'node:crypto';

/**
 * An Ed25519 private key given as PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`, newlines may be
 * written `\n` in one-line environment files) or as a JWK with `d`. Throws a message for a
 * person on anything else.
 */
export function parseEd25519PrivateKey(value: string): KeyObject {
  const text = value.trim();
  let key: KeyObject;
  try {
    key = text.startsWith('{')
      ? createPrivateKey({ key: JSON.parse(text) as Record<string, string>, format: 'jwk' })
      : createPrivateKey(text.replace(/\\n/g, '\n'));
  } catch {
    throw new Error('must be an Ed25519 private key: PKCS#8 PEM (-----BEGIN PRIVATE KEY-----) or a JWK with "d"');
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new Error(`must be an Ed25519 private key, not ${key.asymmetricKeyType ?? 'a symmetric key'}`);
  }
  return key;
}
