import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { IsOptionalNotNull } from '../validation/is-optional-not-null.decorator';
import { ID_MAX_LENGTH } from '../validation/input-bounds';

/**
 * The `test_clock` field of every request that can create a customer (DESIGN §14), declared once.
 * The example sits in the description: Swagger UI pre-fills examples, and a made-up clock id is a 404.
 */
export function TestClockField(what = 'A new customer'): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      description:
        `Test mode: ${what} is bound to this test clock (from POST /v1/test-clocks, e.g. clock_01jd8x3k2m4n5p6q7r8s9t0v1w) and lives at its frozen_time. ` +
        'An existing customer must already be bound to it (409 TEST_CLOCK_MISMATCH); an unknown clock is 404 TEST_CLOCK_NOT_FOUND.',
      maxLength: ID_MAX_LENGTH,
    }),
    IsOptionalNotNull(),
    IsString(),
    MaxLength(ID_MAX_LENGTH),
  );
}
