import { ApiProperty } from '@nestjs/swagger';
import { PLANS } from '../../auth/merchant.entity';

export class PlanLimitsResponseDto {
  @ApiProperty({ description: 'Largest file that may be declared on upload-url, in bytes', example: 52428800 })
  max_file_size_bytes: number;

  @ApiProperty({ description: 'Storage quota (confirmed + reserved), in bytes', example: 104857600 })
  storage_bytes: number;

  @ApiProperty({ description: 'Bandwidth included per calendar month (UTC), in bytes', example: 1073741824 })
  bandwidth_bytes: number;

  @ApiProperty({ description: 'true: downloads past the bandwidth are refused (free); false: overage is recorded', example: true })
  bandwidth_hard_cap: boolean;
}

export class ModeUsageResponseDto {
  @ApiProperty({ description: 'Bytes of CONFIRMED files', example: 1048576 })
  storage_used_bytes: number;

  @ApiProperty({ description: 'Declared bytes of PENDING uploads whose URL is still valid', example: 0 })
  storage_reserved_bytes: number;

  @ApiProperty({ description: "This month's download bandwidth, in bytes", example: 2097152, minimum: 0 })
  bandwidth_bytes: number;

  @ApiProperty({ description: "This month's bytes beyond the included bandwidth (paid plans)", example: 0 })
  overage_bytes: number;
}

export class ModeUsagesResponseDto {
  @ApiProperty({ description: 'Live-mode usage (what the plan bills)', type: ModeUsageResponseDto })
  live: ModeUsageResponseDto;

  @ApiProperty({ description: 'Test-mode usage, metered separately against the same limits', type: ModeUsageResponseDto })
  test: ModeUsageResponseDto;
}

/** GET /admin/v1/merchants/{id}/usage and the CLI's `usage`. */
export class MerchantUsageResponseDto {
  @ApiProperty({ description: 'Merchant id', example: 'mer_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  merchant_id: string;

  @ApiProperty({ description: 'Plan', enum: PLANS, example: 'free' })
  plan: string;

  @ApiProperty({ description: 'Calendar month (UTC) of the bandwidth figures', pattern: '^\\d{4}-\\d{2}$', minLength: 7, maxLength: 7, example: '2026-11' })
  month: string;

  @ApiProperty({ description: "The plan's limits, in bytes", type: PlanLimitsResponseDto })
  limits: PlanLimitsResponseDto;

  @ApiProperty({ description: 'Usage per mode; each mode is metered on its own against the plan', type: ModeUsagesResponseDto })
  usage: ModeUsagesResponseDto;
}
