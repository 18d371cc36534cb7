import { describe, expect, it } from 'vitest';
import { countOf, formatBytes, formatCount, formatRelative, humanize } from './format';

describe('formatting for people', () => {
  const now = Date.parse('2026-11-26T12:00:00.000Z');
  it.each([
    ['2026-11-26T11:59:50.000Z', 'just now'],
    ['2026-11-26T11:55:00.000Z', '5 minutes ago'],
    ['2026-11-26T09:00:00.000Z', '3 hours ago'],
    ['2026-11-25T12:00:00.000Z', 'yesterday'],
    ['2026-11-29T12:00:00.000Z', 'in 3 days'],
    ['2026-08-26T12:00:00.000Z', '3 months ago'],
    ['2024-11-26T12:00:00.000Z', '2 years ago'],
  ])('%s is "%s"', (iso, text) => expect(formatRelative(iso, now)).toBe(text));

  it('sizes in the reference’s units and counts with separators', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1572864)).toBe('1.5 MB');
    expect(formatBytes(5 * 2 ** 30)).toBe('5.0 GB');
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(countOf(1, 'product')).toBe('1 product');
    expect(countOf(150, 'product')).toBe('150 products');
    expect(humanize('time_limited')).toBe('Time limited');
  });
});
