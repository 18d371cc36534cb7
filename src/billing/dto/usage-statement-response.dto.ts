import { ApiProperty } from '@nestjs/swagger';
import { PLANS } from '../../auth/plan';
import { API_MODES } from '../../database/tenant';

/** A closed month's usage and charge (DESIGN §17): GET /v1/usage/statements and statement.created. */
export class UsageStatementResponseDto {
  @ApiProperty({ description: 'Statement id', example: 'stmt_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({ description: 'Always "usage_statement"', enum: ['usage_statement'], example: 'usage_statement' })
  object: 'usage_statement';

  @ApiProperty({ description: 'The calendar month (UTC) it covers, YYYY-MM', example: '2026-10' })
  month: string;

  @ApiProperty({ description: 'Mode whose usage it covers', enum: API_MODES, example: 'live' })
  mode: string;

  @ApiProperty({ description: 'Plan when the month was closed', enum: PLANS, example: 'growth' })
  plan: string;

  @ApiProperty({ description: 'Bandwidth included in the month, in bytes (the plan’s or the merchant’s own)', example: 10737418240 })
  included_bandwidth_bytes: number;

  @ApiProperty({ description: 'Download bandwidth of the month, in bytes', example: 13421772800, minimum: 0 })
  bandwidth_bytes: number;

  @ApiProperty({ description: 'Bytes beyond the included bandwidth', example: 2684354560 })
  overage_bytes: number;

  @ApiProperty({ description: 'Price per GiB of overage in minor units of `currency`; null on the free plan (a hard cap)', type: Number, nullable: true, example: 10 })
  price_per_gib: number | null;

  @ApiProperty({ description: 'ISO 4217 currency code, lower case', example: 'usd', minLength: 3, maxLength: 3 })
  currency: string;

  @ApiProperty({ description: 'Charge in minor units: overage_bytes × price_per_gib ÷ 2^30, rounded half up', example: 25 })
  amount: number;

  @ApiProperty({ description: 'When the statement was written (after the month ended)', example: '2026-11-01T00:05:00.000Z' })
  created_at: string;

  @ApiProperty({ description: 'When Stripe Billing accepted its meter event; null when not reported (test mode, no amount, Stripe off)', type: String, nullable: true, example: null })
  reported_at: string | null;

  @ApiProperty({ description: 'Why the last report to Stripe failed; null when none failed', type: String, nullable: true, example: null })
  report_error: string | null;
}

/** A statement in the operator's listing: with its merchant. */
export class AdminUsageStatementResponseDto extends UsageStatementResponseDto {
  @ApiProperty({ description: 'Merchant id', example: 'mer_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  merchant_id: string;
}

/** POST /admin/v1/statements/close: what the close wrote. */
export class StatementsClosedResponseDto {
  @ApiProperty({ description: 'The month closed', example: '2026-10' })
  month: string;

  @ApiProperty({ description: 'Statements written by this call (0 when the month was already closed)', example: 2 })
  created: number;
}
