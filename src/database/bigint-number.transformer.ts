import { ValueTransformer } from 'typeorm';

/**
 * PostgreSQL returns bigint as a string; byte counts stay far below 2^53 (1 TB = 2^40), so they
 * are safe as JavaScript numbers.
 */
export const BIGINT_AS_NUMBER: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | number | null) => (value === null || value === undefined ? value : Number(value)),
};
