import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsString, MaxLength } from 'class-validator';
import { IsIsoTimestamp } from '../../validation/iso-timestamp';
import { IsOptionalNotNull } from '../../validation/is-optional-not-null.decorator';
import { STORE_ID_MAX_LENGTH } from '../../validation/input-bounds';

/** Body of POST /v1/test-clocks. */
export class CreateTestClockDto {
  @ApiProperty({ description: "The clock's time: \"now\" for every customer bound to it (any instant, past or future)", format: 'date-time', example: '2027-01-01T00:00:00Z' })
  @IsDefined()
  @IsIsoTimestamp()
  frozen_time: string;

  @ApiPropertyOptional({ description: 'A name to tell clocks apart, e.g. the test suite that made it', maxLength: STORE_ID_MAX_LENGTH, example: 'renewal suite' })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(STORE_ID_MAX_LENGTH)
  name?: string;
}

/** Body of POST /v1/test-clocks/{id}/advance. */
export class AdvanceTestClockDto {
  @ApiProperty({
    description: "The clock's new time: later than its frozen_time, and at most 2 years (731 days) later",
    format: 'date-time',
    example: '2027-02-01T00:00:00Z',
  })
  @IsDefined()
  @IsIsoTimestamp()
  frozen_time: string;
}
