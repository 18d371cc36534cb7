import { applyDecorators } from '@nestjs/common';
import { IsISO8601, IsObject, ValidationOptions, ValidateBy } from 'class-validator';

export const METADATA_MAX_BYTES = 16 * 1024;

/** An ISO 8601 date-time (any offset) that JavaScript can turn into an instant. */
export function IsIsoTimestamp(options?: ValidationOptions): PropertyDecorator {
  return applyDecorators(
    IsISO8601({ strict: true }, { message: '$property must be an ISO 8601 date-time, e.g. 2027-01-15T10:30:00Z', ...options }),
    ValidateBy(
      {
        name: 'isParsableTimestamp',
        validator: {
          validate: (value: unknown) => typeof value === 'string' && !Number.isNaN(Date.parse(value)),
          defaultMessage: () => '$property must be an ISO 8601 date-time, e.g. 2027-01-15T10:30:00Z',
        },
      },
      options,
    ),
  );
}

/** A JSON object (not an array) of at most 16 KiB serialized (DESIGN §4). */
export function IsMetadataObject(options?: ValidationOptions): PropertyDecorator {
  return applyDecorators(
    IsObject({ message: '$property must be a JSON object', ...options }),
    ValidateBy(
      {
        name: 'isMetadataWithinSize',
        validator: {
          validate: (value: unknown) => Buffer.byteLength(JSON.stringify(value ?? {}), 'utf8') <= METADATA_MAX_BYTES,
          defaultMessage: () => `$property must be at most ${METADATA_MAX_BYTES} bytes serialized`,
        },
      },
      options,
    ),
  );
}
