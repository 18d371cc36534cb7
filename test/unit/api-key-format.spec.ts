import { createHash, randomBytes } from 'node:crypto';
import { displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey } from '../../src/auth/api-key-format';
import { CredentialChecksum } from '../../src/auth/credential-checksum';
import { guessApiKey } from '../support/credential-guesses';

const checksum = new CredentialChecksum(randomBytes(32));

describe('API key format', () => {
  it('generates eh_<mode>_ keys with at least 32 base62 characters, all different', () => {
    const keys = new Set<string>();
    for (const mode of ['live', 'test'] as const) {
      for (let index = 0; index < 100; index += 1) {
        const key = generateApiKey(mode, checksum);
        expect(key).toMatch(new RegExp(`^eh_${mode}_[0-9A-Za-z]{32,}$`));
        expect(isWellFormedApiKey(key)).toBe(true);
        keys.add(key);
      }
    }
    expect(keys.size).toBe(200);
  });

  it('hashes with SHA-256 (hex) and never returns the key itself', () => {
    const key = generateApiKey('test', checksum);
    expect(hashApiKey(key)).toBe(createHash('sha256').update(key).digest('hex'));
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).not.toContain(key.slice(8));
  });

  it('shows the first 12 characters as the display prefix', () => {
    const key = generateApiKey('live', checksum);
    expect(displayPrefix(key)).toBe(key.slice(0, 12));
    expect(displayPrefix(key)).toMatch(/^eh_live_[0-9A-Za-z]{4}$/);
  });

  it.each([
    '',
    'eh_test_',
    `eh_test_${'a'.repeat(31)}`,
    `eh_prod_${'a'.repeat(40)}`,
    `EH_TEST_${'a'.repeat(40)}`,
    `eh_test_${'a'.repeat(39)}!`,
    `eh_test_${'a'.repeat(200)}`,
    ` eh_test_${'a'.repeat(40)}`,
  ])('recognises %p as malformed', (value) => {
    expect(isWellFormedApiKey(value)).toBe(false);
  });

  it('ends every key with a keyed checksum that random keys, and keys of another secret, fail', () => {
    const other = new CredentialChecksum(randomBytes(32));
    for (let index = 0; index < 200; index += 1) {
      const key = generateApiKey(index % 2 === 0 ? 'live' : 'test', checksum);
      expect(key).toMatch(/^eh_(live|test)_[0-9A-Za-z]{40}$/);
      expect(checksum.holds(key)).toBe(true);
      expect(other.holds(key)).toBe(false);
      expect(checksum.holds(guessApiKey('live'))).toBe(false);
    }
  });

  it('fails the checksum when any character changes', () => {
    const key = generateApiKey('test', checksum);
    for (let position = 8; position < key.length; position += 1) {
      const changed = key.slice(0, position) + (key[position] === 'a' ? 'b' : 'a') + key.slice(position + 1);
      expect(checksum.holds(changed)).toBe(false);
    }
    expect(checksum.holds('')).toBe(false);
    expect(checksum.holds('abc')).toBe(false);
  });
});
