import { randomInt } from 'node:crypto';

/** Crockford's base32: no I, L, O or U, so a key read aloud or retyped survives. */
export const CROCKFORD_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** 24 random characters (120 bits) and one checksum character: 25, shown in five groups of five. */
export const LICENSE_KEY_RANDOM_LENGTH = 24;
export const LICENSE_KEY_LENGTH = LICENSE_KEY_RANDOM_LENGTH + 1;
const GROUP_LENGTH = 5;
/** What a person may type: the key's characters in any case, with dashes or spaces between them. */
const TYPED_MAX_LENGTH = 64;

/** `length` characters of Crockford base32 drawn uniformly (randomInt has no modulo bias). */
export function randomCrockford(length: number): string {
  let text = '';
  for (let index = 0; index < length; index += 1) text += CROCKFORD_ALPHABET[randomInt(CROCKFORD_ALPHABET.length)];
  return text;
}

/**
 * The canonical form of a typed key (25 characters, upper case, no separators), or null when it
 * can't be one: Crockford's decoding rules (any case; O is 0; I and L are 1; dashes and spaces
 * ignored). Decided without the database, so a malformed key costs nothing.
 */
export function canonicalLicenseKey(typed: string): string | null {
  if (typed.length > TYPED_MAX_LENGTH) return null;
  const compact = typed.replace(/[-\s]/g, '').toUpperCase().replace(/O/g, '0').replace(/[IL]/g, '1');
  if (compact.length !== LICENSE_KEY_LENGTH) return null;
  for (const character of compact) if (!CROCKFORD_ALPHABET.includes(character)) return null;
  return compact;
}

/** `XXXXX-XXXXX-XXXXX-XXXXX-XXXXX`: how a canonical key is shown. */
export function displayedLicenseKey(canonical: string): string {
  const groups: string[] = [];
  for (let start = 0; start < canonical.length; start += GROUP_LENGTH) groups.push(canonical.slice(start, start + GROUP_LENGTH));
  return groups.join('-');
}
