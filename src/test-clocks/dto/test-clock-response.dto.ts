import { ApiProperty } from '@nestjs/swagger';

/** A test clock (DESIGN §14). */
export class TestClockResponseDto {
  @ApiProperty({ description: 'Test clock id', example: 'clock_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({ description: 'Always test_clock', enum: ['test_clock'], example: 'test_clock' })
  object: 'test_clock';

  @ApiProperty({ description: '"Now" for the customers bound to the clock', example: '2027-01-01T00:00:00.000Z' })
  frozen_time: string;

  @ApiProperty({ description: 'The name given at creation', type: String, nullable: true, example: 'renewal suite' })
  name: string | null;

  @ApiProperty({ description: 'ready: an advance answers once everything due has been applied', enum: ['ready'], example: 'ready' })
  status: 'ready';

  @ApiProperty({ description: 'Creation time (real time)', example: '2026-11-22T13:04:41.123Z' })
  created_at: string;
}

export class DeletedTestClockResponseDto {
  @ApiProperty({ description: 'The deleted clock id', example: 'clock_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({ description: 'Always true', example: true })
  deleted: boolean;
}
