import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiParam } from '@nestjs/swagger';
import type { DashboardSessionCredential } from '../auth/auth-context';
import { ErrorCode } from '../errors/error-code.enum';
import { ApiEnvelopeResponse } from '../swagger/api-envelope-response.decorator';
import { ApiErrorResponses } from '../swagger/api-error-responses.decorator';
import { ApiJsonBody } from '../swagger/api-json-body.decorator';
import { CurrentSession, DashboardRoute, DashboardSession } from './dashboard-route.decorator';
import { DashboardTeamService, memberActor } from './dashboard-team.service';
import { DeletedTeamMemberResponseDto, InviteTeamMemberDto, TeamMemberResponseDto, TeamSetupLinkResponseDto, UpdateTeamMemberDto } from './dto/dashboard-team.dto';
import { CurrentAudit, RequestAudit } from '../auth/request-audit';

const USER_ID_PARAM = { name: 'user_id', description: 'Dashboard user id', example: 'user_01jd8x3k2m4n5p6q7r8s9t0v1w' };

/** Settings → Team (DESIGN §11): every user lists the team; owners and admins (`team:manage`) change it. */
@DashboardRoute()
@Controller('dashboard/api/team')
export class DashboardTeamController {
  constructor(private readonly team: DashboardTeamService) {}

  @Get()
  @DashboardSession()
  @ApiOperation({ summary: 'List the team', description: "The merchant's dashboard users, oldest first, with their last sign-in and whether their setup is pending." })
  @ApiEnvelopeResponse(TeamMemberResponseDto, { description: 'Every user of the merchant', array: true })
  list(@CurrentSession() session: DashboardSessionCredential): Promise<TeamMemberResponseDto[]> {
    return this.team.list(session.merchantId);
  }

  @Post('invitations')
  @DashboardSession({ scopes: ['team:manage'] })
  @ApiOperation({
    summary: 'Invite a user',
    description:
      'Creates a user of the merchant and returns a one-time setup link (valid 24 hours), shown here once for the inviter to hand over; ' +
      'nothing is emailed. An email that already belongs to a dashboard user (of this merchant or another) is a 409: for a member, issue a reset link. ' +
      'The role defaults to viewer; only an owner invites an owner.',
  })
  @ApiJsonBody(InviteTeamMemberDto, { email: 'grace@example.com', role: 'support' })
  @ApiEnvelopeResponse(TeamSetupLinkResponseDto, { status: 201, description: 'The new user and its setup link' })
  @ApiErrorResponses(ErrorCode.MISSING_REQUIRED_FIELD, ErrorCode.INVALID_PARAMETER, ErrorCode.DASHBOARD_USER_EXISTS)
  invite(@CurrentSession() session: DashboardSessionCredential, @CurrentAudit() audit: RequestAudit, @Body() body: InviteTeamMemberDto): Promise<TeamSetupLinkResponseDto> {
    return this.team.invite(session, body.email, body.role ?? 'viewer', body.test_only ?? false, audit);
  }

  @Post(':user_id/reset-link')
  @DashboardSession({ scopes: ['team:manage'] })
  @ApiOperation({
    summary: 'Issue a password-reset link',
    description:
      "A new one-time link (valid 24 hours) where the user chooses a new password; setting it ends the user's other sessions. " +
      'Earlier links keep working until used or expired. Also the way to re-send a pending invitation. Only an owner resets another owner (403).',
  })
  @ApiParam(USER_ID_PARAM)
  @ApiEnvelopeResponse(TeamSetupLinkResponseDto, { status: 201, description: 'The user and the link' })
  @ApiErrorResponses(ErrorCode.DASHBOARD_USER_NOT_FOUND)
  resetLink(@CurrentSession() session: DashboardSessionCredential, @CurrentAudit() audit: RequestAudit, @Param('user_id') userId: string): Promise<TeamSetupLinkResponseDto> {
    return this.team.resetLink(session, userId, audit);
  }

  @Patch(':user_id')
  @DashboardSession({ scopes: ['team:manage'] })
  @ApiOperation({
    summary: "Change a user's role",
    description:
      "Changes the role or the test-mode limit; the user's next request, on any instance, acts with it. Only an owner changes an owner or makes one (403); " +
      'a merchant always keeps one owner (409 LAST_OWNER).',
  })
  @ApiParam(USER_ID_PARAM)
  @ApiJsonBody(UpdateTeamMemberDto, { role: 'developer' })
  @ApiEnvelopeResponse(TeamMemberResponseDto, { description: 'The user as changed' })
  @ApiErrorResponses(ErrorCode.INVALID_PARAMETER, ErrorCode.DASHBOARD_USER_NOT_FOUND, ErrorCode.LAST_OWNER)
  update(@CurrentSession() session: DashboardSessionCredential, @CurrentAudit() audit: RequestAudit, @Param('user_id') userId: string, @Body() body: UpdateTeamMemberDto): Promise<TeamMemberResponseDto> {
    return this.team.update(memberActor(session), session.merchantId, userId, { role: body.role, test_only: body.test_only }, audit);
  }

  @Delete(':user_id')
  @HttpCode(200)
  @DashboardSession({ scopes: ['team:manage'] })
  @ApiOperation({
    summary: 'Remove a user',
    description:
      "Deletes the user and ends their sessions at once, on every instance. The merchant's last user can't be removed (409), nor its only owner (409 LAST_OWNER); " +
      'only an owner removes an owner (403).',
  })
  @ApiParam(USER_ID_PARAM)
  @ApiEnvelopeResponse(DeletedTeamMemberResponseDto, { description: 'The user is removed' })
  @ApiErrorResponses(ErrorCode.DASHBOARD_USER_NOT_FOUND, ErrorCode.LAST_DASHBOARD_USER, ErrorCode.LAST_OWNER)
  remove(@CurrentSession() session: DashboardSessionCredential, @CurrentAudit() audit: RequestAudit, @Param('user_id') userId: string): Promise<DeletedTeamMemberResponseDto> {
    return this.team.remove(session, userId, audit);
  }
}
