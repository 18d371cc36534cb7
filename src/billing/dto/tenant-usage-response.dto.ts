import { ApiProperty } from '@nestjs/swagger';
import { PLANS } from '../../auth/plan';
import { API_MODES } from '../../database/tenant';
import { PlanLimitsResponseDto } from './merchant-usage-response.dto';

export class OverageResponseDto {
  @ApiProperty({ description: 'Price per GiB beyond the included bandwidth, in minor units of `currency`; null on the free plan (a hard cap)', type: Number, nullable: true, example: 10 })
  price_per_gib: number | null;

  @ApiProperty({ description: 'ISO 4217 currency code, lower case', example: 'usd', minLength: 3, maxLength: 3 })
  currency: string;

  @ApiProperty({ description: "The month's charge so far in minor units: overage_bytes × price_per_gib ÷ 2^30, rounded half up", example: 25 })
  amount_to_date: number;
}

/** GET /v1/usage: the key's mode, this calendar month (DESIGN §17). */
export class TenantUsageResponseDto {
  @ApiProperty({ description: 'Calendar month (UTC) of the bandwidth figures, YYYY-MM', example: '2026-11' })
  month: string;

  @ApiProperty({ description: "Mode (the API key's)", enum: API_MODES, example: 'live' })
  mode: string;

  @ApiProperty({ description: 'Plan', enum: PLANS, example: 'growth' })
  plan: string;

  @ApiProperty({ description: "Limits in bytes: the plan's, or the merchant's own where set", type: PlanLimitsResponseDto })
  limits: PlanLimitsResponseDto;

  @ApiProperty({ description: 'Bytes of CONFIRMED files', example: 1048576 })
  storage_used_bytes: number;

  @ApiProperty({ description: 'Declared bytes of PENDING uploads whose URL is still valid', example: 0 })
  storage_reserved_bytes: number;

  @ApiProperty({ description: "This month's download bandwidth, in bytes", example: 13421772800, minimum: 0 })
  bandwidth_bytes: number;

  @ApiProperty({ description: "This month's bytes beyond the included bandwidth (0 on the free plan, which refuses instead)", example: 2684354560 })
  overage_bytes: number;

  @ApiProperty({ description: 'Overage price and the charge so far', type: OverageResponseDto })
  overage: OverageResponseDto;
}
