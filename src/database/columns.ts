import { ColumnOptions } from 'typeorm';

/** Millisecond precision matches JavaScript dates, so keyset cursors compare exactly. */
export const TIMESTAMP: ColumnOptions = { type: 'timestamptz', precision: 3 };

/** The largest value of an `integer` (int4) column: a count past it fails in the database (a 500). */
export const INT4_MAX = 2_147_483_647;
