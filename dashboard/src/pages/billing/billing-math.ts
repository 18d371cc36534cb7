import type { Schemas } from '../../api/client';

type Statement = Schemas['UsageStatementResponseDto'];

const GIBIBYTE = 2n ** 30n;

/** The server's rule (docs/files-and-plans.md): overage bytes × price ÷ 2^30, rounded half up, in integers. */
export function overageAmount(overageBytes: number, pricePerGib: number): number {
  return Number((BigInt(Math.max(0, Math.trunc(overageBytes))) * BigInt(pricePerGib) + GIBIBYTE / 2n) / GIBIBYTE);
}

/**
 * The month's charge if the rest of it goes as it went so far: bandwidth to date scaled to the
 * whole month (by the milliseconds elapsed), then the server's rule. An estimate, shown as one.
 */
export function projectedCharge(usage: { month: string; bandwidth_bytes: number; limits: { bandwidth_bytes: number; bandwidth_hard_cap: boolean }; overage: { price_per_gib: number | null } }, now: Date): number {
  const price = usage.overage.price_per_gib;
  if (price === null || usage.limits.bandwidth_hard_cap) return 0;
  const [year, month] = usage.month.split('-').map(Number);
  const start = Date.UTC(year, month - 1, 1);
  const end = Date.UTC(year, month, 1);
  const elapsed = Math.min(Math.max(now.getTime() - start, 1), end - start);
  const projected = Math.round((usage.bandwidth_bytes * (end - start)) / elapsed);
  return overageAmount(projected - usage.limits.bandwidth_bytes, price);
}

/** An amount in minor units as money: 3300 usd → "$33.00" (currencies with cents; the code otherwise). */
export function formatMoney(minorUnits: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() }).format(minorUnits / 100);
  } catch {
    return `${minorUnits} ${currency} (minor units)`;
  }
}

const CSV_COLUMNS = ['id', 'month', 'mode', 'plan', 'included_bandwidth_bytes', 'bandwidth_bytes', 'overage_bytes', 'price_per_gib', 'currency', 'amount', 'created_at'] as const;

/** The statements shown, as CSV (RFC 4180, a header row) for the merchant's own books. */
export function statementsCsv(statements: readonly Statement[]): string {
  const field = (value: string | number | null) => {
    const text = value === null ? '' : String(value);
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return [CSV_COLUMNS.join(','), ...statements.map((statement) => CSV_COLUMNS.map((column) => field(statement[column])).join(','))].join('\r\n') + '\r\n';
}
