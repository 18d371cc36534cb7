import type { Plan } from '../auth/merchant.entity';

export const MEBIBYTE = 2 ** 20;
export const GIBIBYTE = 2 ** 30;
export const TEBIBYTE = 2 ** 40;

export interface PlanLimits {
  maxFileSizeBytes: number;
  storageBytes: number;
  /** Included monthly bandwidth (calendar month, UTC). */
  bandwidthBytes: number;
  /** Free: refuse past the bandwidth; paid: record overage bytes instead. */
  bandwidthHardCap: boolean;
}

/** The reference's plan table; MB, GB and TB are binary (DESIGN §4). */
export const PLAN_LIMITS: Record<Plan, PlanLimits> = {
  free: { maxFileSizeBytes: 50 * MEBIBYTE, storageBytes: 100 * MEBIBYTE, bandwidthBytes: GIBIBYTE, bandwidthHardCap: true },
  growth: { maxFileSizeBytes: 200 * MEBIBYTE, storageBytes: GIBIBYTE, bandwidthBytes: 10 * GIBIBYTE, bandwidthHardCap: false },
  pro: { maxFileSizeBytes: GIBIBYTE, storageBytes: 10 * GIBIBYTE, bandwidthBytes: 100 * GIBIBYTE, bandwidthHardCap: false },
  enterprise: { maxFileSizeBytes: 5 * GIBIBYTE, storageBytes: 100 * GIBIBYTE, bandwidthBytes: TEBIBYTE, bandwidthHardCap: false },
};

/** The calendar month (UTC) bandwidth is counted in, as 'YYYY-MM'. */
export function billingMonth(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** A calendar month as the API takes it: 'YYYY-MM'. */
export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The instant a month ('YYYY-MM') ends (UTC): the first millisecond of the next month. */
export function monthEnd(month: string): Date {
  const [year, monthNumber] = month.split('-').map(Number);
  return new Date(Date.UTC(year, monthNumber, 1));
}

/** The month before the one `at` is in. */
export function previousMonth(at: Date): string {
  return billingMonth(new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - 1, 1)));
}
