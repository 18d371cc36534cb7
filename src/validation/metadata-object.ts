import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsObject, ValidateBy, ValidationOptions } from 'class-validator';

export const METADATA_MAX_BYTES = 16 * 1024;

/**
 * A JSON object (not an array) of at most 16 KiB serialized (DESIGN §4), kept exactly as parsed:
 * class-transformer would rebuild it key by key, dropping `__proto__` and `constructor` keys,
 * which are data here. The validation pipe hands it over as a FreeFormStandIn (input-rules.ts);
 * the source value is kept as it is.
 */
export function IsMetadataObject(options?: ValidationOptions): PropertyDecorator {
  return applyDecorators(
    Transform(({ obj, key }: { obj: Record<string, unknown>; key: string }) => obj[key]),
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
