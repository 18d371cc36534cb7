import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { ROLES, type Role } from '../../auth/roles';

export class InviteTeamMemberDto {
  @ApiProperty({ description: 'Email the new user will sign in with (case-insensitive; not yet any dashboard user\'s)', example: 'grace@example.com', maxLength: 254 })
  @IsDefined()
  @IsString()
  @MaxLength(254)
  email: string;

  @ApiProperty({ description: 'The role (default viewer); only an owner may invite an owner', enum: ROLES, required: false, example: 'support' })
  @IsOptional()
  @IsIn(ROLES)
  role?: Role;

  @ApiProperty({ description: 'Limit the user to test mode (every live request is 403); default false', required: false, example: false })
  @IsOptional()
  @IsBoolean()
  test_only?: boolean;
}

/** A change of a member's role or test-mode limit; what is left out stays. */
export class UpdateTeamMemberDto {
  @ApiProperty({ description: 'The new role; only an owner changes an owner or makes one, and a merchant always keeps one owner', enum: ROLES, required: false, example: 'developer' })
  @IsOptional()
  @IsIn(ROLES)
  role?: Role;

  @ApiProperty({ description: 'Limit the user to test mode (every live request is 403)', required: false, example: true })
  @IsOptional()
  @IsBoolean()
  test_only?: boolean;
}

/** A user of the merchant's dashboard, as Settings → Team lists them. */
export class TeamMemberResponseDto {
  @ApiProperty({ description: 'Dashboard user id', example: 'user_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({ description: 'Email (lower-cased)', example: 'grace@example.com' })
  email: string;

  @ApiProperty({ description: 'When the user was invited or created', example: '2026-11-22T13:04:41.123Z' })
  created_at: string;

  @ApiProperty({ description: 'The last successful sign-in; null if never', type: String, nullable: true, example: '2026-11-24T08:15:00.000Z' })
  last_signed_in_at: string | null;

  @ApiProperty({ description: 'True until the user has set a password through a setup link', example: false })
  setup_pending: boolean;

  @ApiProperty({ description: "The user's role (DESIGN §11)", enum: ROLES, example: 'support' })
  role: Role;

  @ApiProperty({ description: 'Limited to test mode: every live request is 403', example: false })
  test_only: boolean;
}

/** An invitation or a password reset: the link to hand to the user, shown once, never emailed. */
export class TeamSetupLinkResponseDto {
  @ApiProperty({ description: 'The user the link is for', type: TeamMemberResponseDto })
  user: TeamMemberResponseDto;

  @ApiProperty({ description: 'One-time link where the user sets a password; valid 24 hours; shown only here', example: 'http://localhost:3000/dashboard/setup#token=mZ2xq1Hk8cV0yJ3pT5rW7uA9sD1fG3hK5lZ7xC9vB1n' })
  setup_url: string;

  @ApiProperty({ description: 'The link stops working at this time', example: '2026-11-23T13:04:41.123Z' })
  setup_url_expires_at: string;
}

export class DeletedTeamMemberResponseDto {
  @ApiProperty({ description: 'The removed user', example: 'user_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({ description: 'Always true', example: true })
  deleted: boolean;
}
