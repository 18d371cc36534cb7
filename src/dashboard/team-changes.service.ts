import { Injectable } from '@nestjs/common';
import type { Role } from '../auth/roles';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import type { Transaction } from '../database/transaction';
import { UnitOfWork } from '../database/unit-of-work';
import { DashboardUserEntity } from './dashboard-user.entity';
import { DashboardUsersRepository, LockedMember } from './dashboard-users.repository';
import { MemberChange, refusalOfTeamChange, TeamActor } from './team-rules';
import { inTenant, RequestAudit } from '../auth/request-audit';

/**
 * Changes of one member under the owner rules (team-rules.ts), decided on the merchant's locked
 * users: Settings → Team and the admin API / CLI (which may change an owner) both come here.
 */
@Injectable()
export class TeamChanges {
  constructor(
    private readonly users: DashboardUsersRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** Changes the role or the test-mode limit; the user's next request, on any instance, acts with it (sessions read the user's row). */
  async update(actor: TeamActor, merchantId: string, userId: string, change: { role?: Role; test_only?: boolean }, audit: RequestAudit): Promise<DashboardUserEntity> {
    // A role change is the account's, of no mode; recorded with the change (DESIGN §11).
    await this.unitOfWork.runRecorded(inTenant(audit, merchantId, null), async (tx) => {
      await this.decide(tx, actor, merchantId, userId, { kind: 'update', role: change.role });
      await this.users.update(tx, merchantId, userId, change);
    });
    return this.require(merchantId, userId);
  }

  /** Locks the team and refuses the change when the rules do; returns the locked team. */
  async decide(tx: Transaction, actor: TeamActor, merchantId: string, userId: string, change: MemberChange): Promise<LockedMember[]> {
    const team = await this.users.lockTeam(tx, merchantId);
    const target = team.find((member) => member.id === userId);
    if (!target) throw memberNotFound(userId);
    if (change.kind === 'remove' && team.length === 1) {
      throw new ApiError(ErrorCode.LAST_DASHBOARD_USER, `'${userId}' is the merchant's last dashboard user; invite another before removing it`);
    }
    const refusal = refusalOfTeamChange(actor, team, target, change);
    if (refusal) throw refusal;
    return team;
  }

  async require(merchantId: string, userId: string): Promise<DashboardUserEntity> {
    const user = await this.users.findOfMerchant(this.unitOfWork.pool, merchantId, userId);
    if (!user) throw memberNotFound(userId);
    return user;
  }
}

export function memberNotFound(userId: string): ApiError {
  return new ApiError(ErrorCode.DASHBOARD_USER_NOT_FOUND, `No user '${userId}' in this merchant's dashboard team`);
}
