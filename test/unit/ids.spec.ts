import fc from 'fast-check';
import { TypeID } from 'typeid-js';
import { generateId, ID_PREFIXES, idLength, idPattern, isValidId } from '../../src/ids/id';

describe('ids', () => {
  it('generates a valid, prefixed id for every prefix', () => {
    for (const prefix of Object.values(ID_PREFIXES)) {
      const id = generateId(prefix);
      expect(id).toMatch(new RegExp(`^${prefix}_[0-9a-z]{26}$`));
      expect(isValidId(prefix, id)).toBe(true);
    }
  });

  it('sorts by creation time', () => {
    const ids = Array.from({ length: 50 }, () => generateId('ent'));
    expect([...ids].sort()).toEqual(ids);
  });

  it.each([
    ['another prefix', generateId('prod')],
    ['no suffix', 'ent_'],
    ['no prefix', '01jd8x3k2m4n5p6q7r8s9t0v1w'],
    ['bad characters', "ent_' OR 1=1 --"],
    ['upper case', generateId('ent').toUpperCase()],
    ['too long', `ent_${'0'.repeat(300)}`],
    ['too short', 'ent_01jd8x'],
    ['empty', ''],
  ])('refuses %s', (_label, value) => {
    expect(isValidId('ent', value)).toBe(false);
  });

  it('refuses non-strings', () => {
    expect(isValidId('ent', undefined)).toBe(false);
    expect(isValidId('ent', 42)).toBe(false);
    expect(isValidId('ent', null)).toBe(false);
  });

  it('agrees with typeid-js on what a well-formed id is, and publishes its pattern and length', () => {
    const parses = (prefix: string, value: string) => {
      try {
        TypeID.fromString(value, prefix);
        return true;
      } catch {
        return false;
      }
    };
    const alphabet = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-';
    const candidate = fc.oneof(
      fc.constantFrom(...Object.values(ID_PREFIXES)).map((prefix) => generateId(prefix)),
      fc.tuple(fc.constantFrom(...Object.values(ID_PREFIXES)), fc.string({ unit: fc.constantFrom(...alphabet), minLength: 24, maxLength: 28 })).map(([prefix, suffix]) => `${prefix}_${suffix}`),
      fc.tuple(fc.constantFrom(...Object.values(ID_PREFIXES)), fc.stringMatching(/^[0-9a-z]{26}$/)).map(([prefix, suffix]) => `${prefix}_${suffix}`),
    );
    fc.assert(
      fc.property(fc.constantFrom(...Object.values(ID_PREFIXES)), candidate, (prefix, value) => {
        expect({ value, valid: isValidId(prefix, value) }).toEqual({ value, valid: parses(prefix, value) });
      }),
      { numRuns: 5000 },
    );
    for (const prefix of Object.values(ID_PREFIXES)) {
      const id = generateId(prefix);
      expect(id).toMatch(new RegExp(idPattern(prefix)));
      expect(id).toHaveLength(idLength(prefix));
    }
  });
});
