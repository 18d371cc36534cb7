import { applyDecorators } from '@nestjs/common';
import { IsISO8601, MaxLength, ValidateBy, ValidationOptions } from 'class-validator';
import { TIMESTAMP_MAX_LENGTH } from './input-bounds';

/** The name of the rule IsIsoTimestamp adds: the document marks the fields it guards `format: date-time`. */
export const ISO_TIMESTAMP_RULE = 'isIsoTimestampInRange';

const MESSAGE = '$property must be an ISO 8601 date-time between years 0001 and 9999, e.g. 2027-01-15T10:30:00Z';

/**
 * The instant an ISO 8601 date-time names, or null unless it falls within years 0001–9999 once
 * its offset is applied: `9999-12-31T23:59:59-05:00` is in year 10000 (PostgreSQL would store
 * `+010000-…`, JavaScript prints `+010000-…`), and year 0000 does not exist in the API's format.
 */
export function instantOf(value: string): Date | null {
  if (value.length > TIMESTAMP_MAX_LENGTH || !isRealCalendarDate(value)) return null;
  const milliseconds = Date.parse(value);
  if (Number.isNaN(milliseconds)) return null;
  const year = new Date(milliseconds).getUTCFullYear();
  return year >= 1 && year <= 9999 ? new Date(milliseconds) : null;
}

/**
 * JavaScript reads 2024-02-30 as March 1st; the calendar date written must exist. (validator's
 * strict mode also checks this, but through local-time years that turn 0050 into 1950.)
 */
function isRealCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!match) return true;
  const [year, month, day] = match.slice(1).map(Number);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const daysInMonth = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return day <= daysInMonth;
}

/**
 * The one date-time rule of every body field and query filter: ISO 8601 with any offset, a real
 * calendar date (no 2024-02-30), within years 0001–9999 after the offset, at most
 * TIMESTAMP_MAX_LENGTH characters. The document says `format: date-time` (RFC 3339, the form to
 * send) with that maxLength (src/swagger/document-precision.ts reads the rules below).
 */
export function IsIsoTimestamp(options?: ValidationOptions): PropertyDecorator {
  return applyDecorators(
    MaxLength(TIMESTAMP_MAX_LENGTH, { message: MESSAGE, ...options }),
    IsISO8601({}, { message: MESSAGE, ...options }),
    ValidateBy(
      {
        name: ISO_TIMESTAMP_RULE,
        validator: {
          validate: (value: unknown) => typeof value === 'string' && instantOf(value) !== null,
          defaultMessage: () => MESSAGE,
        },
      },
      options,
    ),
  );
}
