import { createHash, randomInt } from 'node:crypto';
import type { ApiMode } from '../database/tenant';
import { CHECKSUM_LENGTH, CredentialChecksum } from './credential-checksum';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 40 base62 characters after the prefix, as before checksums; DESIGN asks for at least 32. */
export const API_KEY_SECRET_LENGTH = 40;
/** 34 random characters (≈202 bits) and the 6-character keyed checksum. */
export const API_KEY_RANDOM_LENGTH = API_KEY_SECRET_LENGTH - CHECKSUM_LENGTH;
const KEY_PATTERN = /^eh_(live|test)_[0-9A-Za-z]{32,128}$/;
export const DISPLAY_PREFIX_LENGTH = 12;

/** `length` base62 characters drawn uniformly (randomInt has no modulo bias). */
export function randomBase62(length: number): string {
  let text = '';
  for (let index = 0; index < length; index += 1) text += BASE62[randomInt(BASE62.length)];
  return text;
}

/** `eh_<mode>_` + 34 random base62 characters + their keyed checksum: the reference's format, 40 characters after the prefix. */
export function generateApiKey(mode: ApiMode, checksum: CredentialChecksum): string {
  return checksum.seal(`eh_${mode}_${randomBase62(API_KEY_RANDOM_LENGTH)}`);
}

export function isWellFormedApiKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
}
