import { formatExact, formatRelative } from '../lib/format';

/** A time as people read it ("3 hours ago"), the exact time on hover and for screen readers. */
export function Time({ value, empty = '—' }: { value: string | null | undefined; empty?: string }) {
  if (!value) return <span className="muted">{empty}</span>;
  const exact = formatExact(value);
  return (
    <time dateTime={value} title={exact}>
      {formatRelative(value)}
    </time>
  );
}
