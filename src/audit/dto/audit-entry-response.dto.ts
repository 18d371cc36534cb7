import { ApiProperty } from '@nestjs/swagger';
import { AUDIT_ACTOR_TYPES, AUDIT_OBJECT_TYPES, AUDIT_STATUSES } from '../../database/audit-trail';
import { API_MODES } from '../../database/tenant';

export class AuditActorResponseDto {
  @ApiProperty({ description: 'user (a dashboard session), api_key, admin (the operator token), system (the CLI) or customer (a portal session: a download, a device deactivated)', enum: AUDIT_ACTOR_TYPES, example: 'user' })
  type: string;

  @ApiProperty({ description: "The user's or the key's id; `admin` or `cli` for the operator", example: 'user_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({ description: "What a person recognises: the user's email or the key's prefix", maxLength: 254, example: 'support@example.com' })
  label: string;
}

export class AuditObjectResponseDto {
  @ApiProperty({ description: 'The kind of object acted on (entitlement, product, api_key, dashboard_user…; unknown for a path that names none)', enum: AUDIT_OBJECT_TYPES, example: 'entitlement' })
  type: string;

  @ApiProperty({ description: 'Its id; null when the action has no single object (a failed sign-in of an unknown user)', nullable: true, type: String, example: 'ent_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string | null;
}

/** One audit-log row: who did what to which object, when, from where. */
export class AuditEntryResponseDto {
  @ApiProperty({ description: 'Audit row id', example: 'aud_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({ description: 'When the change committed (the row commits with it)', example: '2026-11-22T13:04:41.123Z' })
  created_at: string;

  @ApiProperty({ description: 'Who acted', type: AuditActorResponseDto })
  actor: AuditActorResponseDto;

  @ApiProperty({ description: 'The operation id of the route (as in the OpenAPI document), e.g. dashboardApi.signIn for a sign-in', example: 'entitlements.revoke' })
  action: string;

  @ApiProperty({ description: 'What was acted on', type: AuditObjectResponseDto })
  object: AuditObjectResponseDto;

  @ApiProperty({ description: "The mode acted in; null for the merchant's account (sign-ins, the team)", enum: API_MODES, nullable: true, type: String, example: 'test' })
  mode: string | null;

  @ApiProperty({ description: "The request's id (its X-Request-Id); null for the CLI", nullable: true, type: String, example: 'req_q3Zr9x0aB1cD2eF3' })
  request_id: string | null;

  @ApiProperty({ description: "The client's address (through TRUST_PROXY's hops); null for the CLI", nullable: true, type: String, maxLength: 64, example: '203.0.113.7' })
  client_address: string | null;

  @ApiProperty({ description: 'succeeded, or failed for what is recorded because it failed (a failed sign-in); a failed write records nothing', enum: AUDIT_STATUSES, example: 'succeeded' })
  status: string;
}
