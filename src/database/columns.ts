import { ColumnOptions } from 'typeorm';

/** Millisecond precision matches JavaScript dates, so keyset cursors compare exactly. */
export const TIMESTAMP: ColumnOptions = { type: 'timestamptz', precision: 3 };
