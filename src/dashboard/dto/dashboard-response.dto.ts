import { ApiProperty } from '@nestjs/swagger';
import { MerchantUsageResponseDto } from '../../billing/dto/merchant-usage-response.dto';
import { ROLES, type Role } from '../../auth/roles';
import { SCOPES, SESSION_SCOPES } from '../../auth/scopes';

/** POST /admin/v1/merchants/{id}/users and the CLI's users:create. */
export class DashboardUserCreatedResponseDto {
  @ApiProperty({ description: 'Dashboard user id', example: 'user_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({ description: 'Merchant the user belongs to', example: 'mer_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  merchant_id: string;

  @ApiProperty({ description: 'Email (lower-cased)', example: 'ada@example.com' })
  email: string;

  @ApiProperty({ description: 'One-time link where the user sets a password; shown only here', example: 'http://localhost:3000/dashboard/setup#token=mZ2x' })
  setup_url: string;

  @ApiProperty({ description: 'The link stops working at this time (24 hours)', example: '2026-11-23T13:04:41.123Z' })
  setup_url_expires_at: string;

  @ApiProperty({ description: 'Creation time of the user', example: '2026-11-22T13:04:41.123Z' })
  created_at: string;

  @ApiProperty({ description: "The user's role (DESIGN §11)", enum: ROLES, example: 'owner' })
  role: Role;

  @ApiProperty({ description: 'Limited to test mode: every live request is 403', example: false })
  test_only: boolean;
}

/** The signed-in session, as the dashboard app reads it. It holds no mode: each page names its own (Eh-Mode). */
export class DashboardSessionResponseDto {
  @ApiProperty({ description: 'Dashboard user id', example: 'user_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  user_id: string;

  @ApiProperty({ description: 'Email of the signed-in user', example: 'ada@example.com' })
  email: string;

  @ApiProperty({ description: 'Merchant id', example: 'mer_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  merchant_id: string;

  @ApiProperty({ description: "The merchant's name", example: 'Field Guides Ltd' })
  merchant_name: string;

  @ApiProperty({ description: 'Send as X-CSRF-Token on every state-changing request', example: 'Zk3pQ9xT2vB7nL4mR8sW1yC6dF0gH5jK3aE9uI2oP7q' })
  csrf_token: string;

  @ApiProperty({ description: "The user's role; it is read again on every request, so a change applies at the next one", enum: ROLES, example: 'support' })
  role: Role;

  @ApiProperty({ description: 'Limited to test mode: every live request is 403', example: false })
  test_only: boolean;

  @ApiProperty({
    description: "The role's scopes (in test mode; none in live mode when test_only): what the dashboard shows, and what the server allows",
    type: [String],
    enum: [...SCOPES, ...SESSION_SCOPES],
    example: ['entitlements:read', 'entitlements:grant', 'events:redeliver'],
  })
  scopes: string[];
}

export class SignedOutResponseDto {
  @ApiProperty({ description: 'Always true', example: true })
  signed_out: boolean;
}

export class CompletedSetupResponseDto {
  @ApiProperty({ description: 'Email of the user whose password was set; sign in with it', example: 'ada@example.com' })
  email: string;
}

export class DailyDownloadsResponseDto {
  @ApiProperty({ description: 'UTC day', example: '2026-11-22' })
  day: string;

  @ApiProperty({ description: 'Download URLs issued that day', example: 12 })
  downloads: number;

  @ApiProperty({ description: 'Bytes counted against bandwidth that day', example: 10485760 })
  bytes: number;
}

/** The Overview page: plan, limits, usage, and 30 days of downloads. */
export class DashboardOverviewResponseDto {
  @ApiProperty({ description: 'Plan, limits and usage of both modes', type: MerchantUsageResponseDto })
  usage: MerchantUsageResponseDto;

  @ApiProperty({ description: "The last 30 UTC days of the session's mode, oldest first", type: DailyDownloadsResponseDto, isArray: true })
  daily: DailyDownloadsResponseDto[];
}
