import { ColumnOptions } from 'typeorm';
import type { PrimaryColumnOptions } from 'typeorm/decorator/columns/PrimaryColumn';

/** Millisecond precision matches JavaScript dates, so keyset cursors compare exactly. */
export const TIMESTAMP: ColumnOptions = { type: 'timestamptz', precision: 3 };

/** The same as part of a primary key: the time column a table is partitioned by (database/monthly-partitions.ts). */
export const PRIMARY_TIMESTAMP: PrimaryColumnOptions = { type: 'timestamptz', precision: 3 };

/** The largest value of an `integer` (int4) column: a count past it fails in the database (a 500). */
export const INT4_MAX = 2_147_483_647;
