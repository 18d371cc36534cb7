import { createHash, randomInt } from 'node:crypto';
import type { ApiMode } from '../database/tenant';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 40 base62 characters ≈ 238 bits; DESIGN asks for at least 32. */
const SECRET_LENGTH = 40;
const KEY_PATTERN = /^eh_(live|test)_[0-9A-Za-z]{32,128}$/;
export const DISPLAY_PREFIX_LENGTH = 12;

export function generateApiKey(mode: ApiMode): string {
  let secret = '';
  // randomInt draws uniformly, so there is no modulo bias.
  for (let index = 0; index < SECRET_LENGTH; index += 1) secret += BASE62[randomInt(BASE62.length)];
  return `eh_${mode}_${secret}`;
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
