/** How the dashboard writes numbers, sizes and times for people (one place, so every page agrees). */

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** Bytes in the reference's units (MB = 2^20 bytes), one decimal above bytes: "1.5 MB". */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${UNITS[unit]}`;
}

const COUNT = new Intl.NumberFormat('en');

/** A count with thousands separators: 12,345. */
export function formatCount(value: number): string {
  return COUNT.format(value);
}

/** "3 products", "1 product": a count and its noun, pluralised the simple English way. */
export function countOf(value: number, noun: string, plural = `${noun}s`): string {
  return `${formatCount(value)} ${value === 1 ? noun : plural}`;
}

const EXACT = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'long' });

/** The exact time, in the browser's time zone, naming the zone: "Nov 26, 2026, 9:14:03 PM UTC". */
export function formatExact(iso: string): string {
  return EXACT.format(new Date(iso));
}

const RELATIVE = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const STEPS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

/** The time relative to now: "just now", "5 minutes ago", "in 3 days", "last year". */
export function formatRelative(iso: string, now: number = Date.now()): string {
  let value = (new Date(iso).getTime() - now) / 1000;
  if (Math.abs(value) < 45) return 'just now';
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size) return RELATIVE.format(Math.round(value), unit);
    value /= size;
  }
  return RELATIVE.format(Math.round(value), 'year');
}

/** A machine name for people: "time_limited" → "Time limited", "order.refunded" stays as it is. */
export function humanize(value: string): string {
  const words = value.replace(/_/g, ' ').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
