import { Injectable } from '@nestjs/common';
import type { DashboardSessionCredential } from '../auth/auth-context';
import type { Role } from '../auth/roles';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { UnitOfWork } from '../database/unit-of-work';
import { DashboardUserEntity } from './dashboard-user.entity';
import { DashboardUsersRepository } from './dashboard-users.repository';
import { DashboardUsersService, normaliseEmail } from './dashboard-users.service';
import { DeletedTeamMemberResponseDto, TeamMemberResponseDto, TeamSetupLinkResponseDto } from './dto/dashboard-team.dto';
import { refusalOfInvitation, TeamActor } from './team-rules';
import { TeamChanges } from './team-changes.service';
import { inTenant, RequestAudit } from '../auth/request-audit';

/**
 * Settings → Team (DESIGN §11): every user lists the team; owners and admins (`team:manage`)
 * invite, change roles, remove and issue password-reset links, within the owner rules
 * (team-rules.ts). Links are shown to the person who asked, never emailed.
 */
@Injectable()
export class DashboardTeamService {
  constructor(
    private readonly users: DashboardUsersRepository,
    private readonly accounts: DashboardUsersService,
    private readonly unitOfWork: UnitOfWork,
    private readonly changes: TeamChanges,
  ) {}

  async list(merchantId: string): Promise<TeamMemberResponseDto[]> {
    return (await this.users.listByMerchant(this.unitOfWork.pool, merchantId)).map(toTeamMember);
  }

  /** A new user of the merchant and its setup link; an email that is anybody's already is a 409 (a member gets a reset link instead). */
  async invite(actor: DashboardSessionCredential, rawEmail: string, role: Role, testOnly: boolean, audit: RequestAudit): Promise<TeamSetupLinkResponseDto> {
    const email = normaliseEmail(rawEmail);
    const refusal = refusalOfInvitation(memberActor(actor), role);
    if (refusal) throw refusal;
    // createIfNew yields null for a taken email: nothing was written, and the refusal below rolls the row back with it.
    const user = await this.unitOfWork
      .runRecorded(inTenant(audit, actor.merchantId, null), async (tx) => {
        const created = await this.users.createIfNew(tx, actor.merchantId, email, role, testOnly);
        if (!created) throw new InvitationRefused();
        return created;
      })
      .catch((error: unknown) => {
        if (error instanceof InvitationRefused) return null;
        throw error;
      });
    if (!user) {
      const existing = await this.users.findByEmail(this.unitOfWork.pool, email);
      const whose = existing?.merchant_id === actor.merchantId ? 'a member of this team: issue them a reset link instead' : "another merchant's dashboard user";
      throw new ApiError(ErrorCode.DASHBOARD_USER_EXISTS, `The email '${email}' already belongs to ${whose}`, 'email');
    }
    return { user: toTeamMember(user), ...(await this.accounts.issueSetupLink(user.id)) };
  }

  /** A new one-time link where the user chooses a new password; using it ends the user's other sessions. Only an owner resets another owner. */
  async resetLink(actor: DashboardSessionCredential, userId: string, audit: RequestAudit): Promise<TeamSetupLinkResponseDto> {
    await this.unitOfWork.runRecorded(inTenant(audit, actor.merchantId, null), (tx) => this.changes.decide(tx, memberActor(actor), actor.merchantId, userId, { kind: 'reset-link' }));
    const user = await this.changes.require(actor.merchantId, userId);
    return { user: toTeamMember(user), ...(await this.accounts.issueSetupLink(user.id)) };
  }

  /** Changes the role or the test-mode limit; the user's next request already acts with it, on every instance. */
  async update(actor: TeamActor, merchantId: string, userId: string, change: { role?: Role; test_only?: boolean }, audit: RequestAudit): Promise<TeamMemberResponseDto> {
    return toTeamMember(await this.changes.update(actor, merchantId, userId, change, audit));
  }

  /** Removes the user: their sessions end at once (deleted with them); the last user and the only owner stay (409). */
  async remove(actor: DashboardSessionCredential, userId: string, audit: RequestAudit): Promise<DeletedTeamMemberResponseDto> {
    await this.unitOfWork.runRecorded(inTenant(audit, actor.merchantId, null), async (tx) => {
      await this.changes.decide(tx, memberActor(actor), actor.merchantId, userId, { kind: 'remove' });
      await this.users.delete(tx, actor.merchantId, userId);
    });
    return { id: userId, deleted: true };
  }
}

/** An invitation whose email is taken: its transaction wrote nothing and rolls back. */
class InvitationRefused extends Error {}

export function memberActor(session: DashboardSessionCredential): TeamActor {
  return { kind: 'member', userId: session.userId, role: session.role };
}

export function toTeamMember(user: DashboardUserEntity): TeamMemberResponseDto {
  return {
    id: user.id,
    email: user.email,
    created_at: user.created_at.toISOString(),
    last_signed_in_at: user.last_signed_in_at ? user.last_signed_in_at.toISOString() : null,
    setup_pending: user.password_hash === null,
    role: user.role,
    test_only: user.test_only,
  };
}
