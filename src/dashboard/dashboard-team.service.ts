import { Injectable } from '@nestjs/common';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { UnitOfWork } from '../database/unit-of-work';
import { DashboardUserEntity } from './dashboard-user.entity';
import { DashboardUsersRepository } from './dashboard-users.repository';
import { DashboardUsersService, normaliseEmail } from './dashboard-users.service';
import { DeletedTeamMemberResponseDto, TeamMemberResponseDto, TeamSetupLinkResponseDto } from './dto/dashboard-team.dto';

/**
 * Settings → Team (DESIGN §11): any user of a merchant lists, invites and removes the merchant's
 * users and issues password-reset links. Links are shown to the person who asked, never emailed.
 */
@Injectable()
export class DashboardTeamService {
  constructor(
    private readonly users: DashboardUsersRepository,
    private readonly accounts: DashboardUsersService,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async list(merchantId: string): Promise<TeamMemberResponseDto[]> {
    return (await this.users.listByMerchant(this.unitOfWork.pool, merchantId)).map(toTeamMember);
  }

  /** A new user of the merchant and its setup link; an email that is anybody's already is a 409 (a member gets a reset link instead). */
  async invite(merchantId: string, rawEmail: string): Promise<TeamSetupLinkResponseDto> {
    const email = normaliseEmail(rawEmail);
    const user = await this.unitOfWork.run((tx) => this.users.createIfNew(tx, merchantId, email));
    if (!user) {
      const existing = await this.users.findByEmail(this.unitOfWork.pool, email);
      const whose = existing?.merchant_id === merchantId ? 'a member of this team: issue them a reset link instead' : "another merchant's dashboard user";
      throw new ApiError(ErrorCode.DASHBOARD_USER_EXISTS, `The email '${email}' already belongs to ${whose}`, 'email');
    }
    return { user: toTeamMember(user), ...(await this.accounts.issueSetupLink(user.id)) };
  }

  /** A new one-time link where the user chooses a new password; using it ends the user's other sessions. */
  async resetLink(merchantId: string, userId: string): Promise<TeamSetupLinkResponseDto> {
    const user = await this.require(merchantId, userId);
    return { user: toTeamMember(user), ...(await this.accounts.issueSetupLink(user.id)) };
  }

  /** Removes the user: their sessions end at once (deleted with them); the last user stays (409). */
  async remove(merchantId: string, userId: string): Promise<DeletedTeamMemberResponseDto> {
    const outcome = await this.unitOfWork.run((tx) => this.users.deleteUnlessLast(tx, merchantId, userId));
    if (outcome === 'unknown') throw notFound(userId);
    if (outcome === 'last') throw new ApiError(ErrorCode.LAST_DASHBOARD_USER, `'${userId}' is the merchant's last dashboard user; invite another before removing it`);
    return { id: userId, deleted: true };
  }

  private async require(merchantId: string, userId: string): Promise<DashboardUserEntity> {
    const user = await this.users.findOfMerchant(this.unitOfWork.pool, merchantId, userId);
    if (!user) throw notFound(userId);
    return user;
  }
}

function notFound(userId: string): ApiError {
  return new ApiError(ErrorCode.DASHBOARD_USER_NOT_FOUND, `No user '${userId}' in this merchant's dashboard team`);
}

function toTeamMember(user: DashboardUserEntity): TeamMemberResponseDto {
  return {
    id: user.id,
    email: user.email,
    created_at: user.created_at.toISOString(),
    last_signed_in_at: user.last_signed_in_at ? user.last_signed_in_at.toISOString() : null,
    setup_pending: user.password_hash === null,
  };
}
