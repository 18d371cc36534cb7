import { createHash } from 'node:crypto';
import { displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey } from '../../src/auth/api-key-format';

describe('API key format', () => {
  it('generates eh_<mode>_ keys with at least 32 base62 characters, all different', () => {
    const keys = new Set<string>();
    for (const mode of ['live', 'test'] as const) {
      for (let index = 0; index < 100; index += 1) {
        const key = generateApiKey(mode);
        expect(key).toMatch(new RegExp(`^eh_${mode}_[0-9A-Za-z]{32,}$`));
        expect(isWellFormedApiKey(key)).toBe(true);
        keys.add(key);
      }
    }
    expect(keys.size).toBe(200);
  });

  it('hashes with SHA-256 (hex) and never returns the key itself', () => {
    const key = generateApiKey('test');
    expect(hashApiKey(key)).toBe(createHash('sha256').update(key).digest('hex'));
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).not.toContain(key.slice(8));
  });

  it('shows the first 12 characters as the display prefix', () => {
    const key = generateApiKey('live');
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
});
