import { humanize } from '../lib/format';

const TONES: Record<string, 'good' | 'warn' | 'bad' | 'neutral' | 'info'> = {
  active: 'good',
  confirmed: 'good',
  granted: 'good',
  succeeded: 'good',
  enabled: 'good',
  trialing: 'info',
  pending: 'info',
  queued: 'info',
  running: 'info',
  completed: 'good',
  suspended: 'warn',
  paused: 'warn',
  past_due: 'warn',
  partially_refunded: 'warn',
  skipped: 'warn',
  unmatched: 'warn',
  disabled: 'warn',
  revoked: 'bad',
  refunded: 'bad',
  expired: 'neutral',
  canceled: 'neutral',
  archived: 'neutral',
  failed: 'bad',
};

/** A status as a coloured label, its words readable without the colour. */
export function Badge({ status, label }: { status: string; label?: string }) {
  const tone = TONES[status.toLowerCase()] ?? 'neutral';
  return <span className={`badge badge-${tone}`}>{label ?? humanize(status)}</span>;
}
