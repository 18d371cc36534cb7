import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { ROLE_SCOPES, type Role } from '../auth/roles';
import type { LockedMember } from './dashboard-users.repository';

/** Who changes the team: a member's session (their role decides) or the admin token / CLI (may do anything that keeps an owner). */
export type TeamActor = { kind: 'member'; userId: string; role: Role } | { kind: 'operator' };

/** A change of a member as the rules see it. */
export type MemberChange = { kind: 'remove' } | { kind: 'reset-link' } | { kind: 'update'; role?: Role };

/**
 * DESIGN §11's team rules, decided on the merchant's locked users: only an owner changes,
 * removes or resets another owner, or makes one (403); a merchant always keeps one owner (409).
 * Team management itself (`team:manage`) is the route's scope, checked before.
 */
export function refusalOfTeamChange(actor: TeamActor, team: readonly LockedMember[], target: LockedMember, change: MemberChange): ApiError | null {
  const touchesOwner = target.role === 'owner' || (change.kind === 'update' && change.role === 'owner');
  const ownOwnerLink = change.kind === 'reset-link' && actor.kind === 'member' && actor.userId === target.id;
  if (touchesOwner && !ownOwnerLink && actor.kind === 'member' && !ROLE_SCOPES[actor.role].has('team:owners')) {
    return new ApiError(ErrorCode.INSUFFICIENT_SCOPE, `The dashboard role '${actor.role}' lacks the scope 'team:owners': only an owner changes, removes or resets an owner, or makes one`);
  }
  const losesOwner = target.role === 'owner' && (change.kind === 'remove' || (change.kind === 'update' && change.role !== undefined && change.role !== 'owner'));
  if (losesOwner && team.filter((member) => member.role === 'owner').length === 1) {
    return new ApiError(ErrorCode.LAST_OWNER, `'${target.id}' is the merchant's only owner; make another user owner first`);
  }
  return null;
}

/** Only an owner may give the owner role to a new user. */
export function refusalOfInvitation(actor: TeamActor, role: Role): ApiError | null {
  if (role !== 'owner' || actor.kind === 'operator' || ROLE_SCOPES[actor.role].has('team:owners')) return null;
  return new ApiError(ErrorCode.INSUFFICIENT_SCOPE, `The dashboard role '${actor.role}' lacks the scope 'team:owners': only an owner invites an owner`);
}
