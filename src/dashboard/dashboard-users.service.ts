import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { MerchantsService } from '../auth/merchants.service';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { GuessingRules } from '../auth/guessing-rules';
import { DashboardSessionsService, StartedSession } from './dashboard-sessions.service';
import { DashboardUsersRepository } from './dashboard-users.repository';
import { DashboardUserCreatedResponseDto } from './dto/dashboard-response.dto';
import { dummyPasswordHash, hashPassword, MIN_PASSWORD_LENGTH, verifyPassword } from './password-hash';
import { UnitOfWork } from '../database/unit-of-work';
import type { Role } from '../auth/roles';
import { TeamChanges } from './team-changes.service';
import { inTenant, RequestAudit } from '../auth/request-audit';
import type { AuditContext, AuditStatus } from '../database/audit-trail';
import type { DashboardUserEntity } from './dashboard-user.entity';

/** DESIGN §11: a setup link works once, for 24 hours. */
export const SETUP_LINK_VALIDITY_MILLISECONDS = 24 * 60 * 60 * 1000;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export interface SignedIn extends StartedSession {
  userId: string;
  email: string;
  merchantId: string;
  role: Role;
  testOnly: boolean;
}

/** Dashboard people: creation with a one-time setup link, choosing a password, signing in. */
@Injectable()
export class DashboardUsersService {
  constructor(
    private readonly users: DashboardUsersRepository,
    private readonly sessions: DashboardSessionsService,
    private readonly merchants: MerchantsService,
    private readonly guessing: GuessingRules,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly unitOfWork: UnitOfWork,
    private readonly team: TeamChanges,
  ) {}

  /**
   * A user of the merchant (created, or the existing one: a new link then resets the password)
   * and a setup link. The role defaults to owner for the merchant's first user and viewer after;
   * given for an existing user, it changes theirs (a merchant still keeps one owner).
   */
  async create(merchantId: string, rawEmail: string, options: { role?: Role; testOnly?: boolean }, audit: RequestAudit): Promise<DashboardUserCreatedResponseDto> {
    const email = normaliseEmail(rawEmail);
    await this.merchants.require(merchantId);
    const user = await this.unitOfWork.runRecorded(inTenant(audit, merchantId, null), async (tx) => {
      const role = options.role ?? ((await this.users.anyOfMerchant(tx, merchantId)) ? 'viewer' : 'owner');
      return this.users.findOrCreate(tx, merchantId, email, role, options.testOnly ?? false);
    });
    if (user.merchant_id !== merchantId) {
      throw new ApiError(ErrorCode.DASHBOARD_USER_EXISTS, `The email '${email}' already belongs to another merchant's dashboard user`, 'email');
    }
    const changed =
      (options.role !== undefined && options.role !== user.role) || (options.testOnly !== undefined && options.testOnly !== user.test_only)
        ? await this.team.update({ kind: 'operator' }, merchantId, user.id, { role: options.role, test_only: options.testOnly }, audit)
        : { role: user.role, test_only: user.test_only };
    const link = await this.issueSetupLink(user.id);
    return { id: user.id, merchant_id: merchantId, email, ...link, created_at: user.created_at.toISOString(), role: changed.role, test_only: changed.test_only };
  }

  /**
   * A new one-time link (24 hours) where the user sets a password: the first one, or a reset. The
   * token travels in the URL's fragment, which browsers send to no server and no Referer carries.
   */
  async issueSetupLink(userId: string): Promise<{ setup_url: string; setup_url_expires_at: string }> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(this.clock.now().getTime() + SETUP_LINK_VALIDITY_MILLISECONDS);
    await this.unitOfWork.run((tx) => this.users.addSetupLink(tx, userId, hashToken(token), expiresAt));
    return { setup_url: `${this.config.publicBaseUrl}/dashboard/setup#token=${token}`, setup_url_expires_at: expiresAt.toISOString() };
  }

  /**
   * Sets the password through a setup link, which is used up whether or not sign-in follows, and
   * ends every other session of the user (a reset locks out whoever knew the old password); the
   * session making the request, if it is the user's own, stays.
   */
  async completeSetup(token: string, password: string, requestSessionId: string | null = null): Promise<{ email: string }> {
    if (password.length < MIN_PASSWORD_LENGTH) {
      throw new ApiError(ErrorCode.INVALID_PARAMETER, `password must be at least ${MIN_PASSWORD_LENGTH} characters`, 'password');
    }
    const passwordHash = await hashPassword(password);
    // One transaction: the link is used, the password set and the user's other sessions ended
    // together, or none of it (a crash between them would leave a used link and no password).
    const userId = await this.unitOfWork.run(async (tx) => {
      const claimed = await this.users.claimSetupLink(tx, hashToken(token), this.clock.now());
      if (!claimed) throw new ApiError(ErrorCode.SETUP_LINK_INVALID, 'This setup link is unknown, already used or older than 24 hours; ask for a new one');
      await this.users.setPasswordHash(tx, claimed, passwordHash);
      await this.sessions.endAllOfUser(tx, claimed, requestSessionId);
      return claimed;
    });
    const user = await this.users.findById(this.unitOfWork.pool, userId);
    return { email: user?.email ?? '' };
  }

  /**
   * Passwords can be guessed (DESIGN §13): failures are limited per client address and per email,
   * and while either is over the limit every attempt is 429, right or wrong (GuessingRules).
   */
  async signIn(rawEmail: string, password: string, clientAddress: string, audit: RequestAudit): Promise<SignedIn> {
    const email = normaliseEmail(rawEmail);
    // A wrong password for a known user is recorded in that user's merchant's log (DESIGN §11); an
    // unknown email belongs to no merchant, so no log has a place for it.
    let wrongPasswordOf: DashboardUserEntity | null = null;
    const user = await this.guessing.guessable(
      [
        { subject: 'address', value: clientAddress },
        { subject: 'email', value: email },
      ],
      async () => {
        const found = await this.users.findByEmail(this.unitOfWork.pool, email);
        // An unknown email costs a hash too, so timing does not tell which emails exist.
        const matches = await verifyPassword(password, found?.password_hash ?? (await dummyPasswordHash()));
        if (found && !(found.password_hash && matches)) wrongPasswordOf = found;
        return found && found.password_hash && matches ? found : null;
      },
      () => new ApiError(ErrorCode.INVALID_CREDENTIALS, 'Unknown email or wrong password'),
    ).catch(async (error: unknown) => {
      const refused: DashboardUserEntity | null = wrongPasswordOf;
      if (refused !== null) await this.unitOfWork.recordAlone(signInAudit(audit, refused, 'failed'));
      throw error;
    });
    const session = await this.sessions.start(user.id, user.merchant_id);
    await this.unitOfWork.runRecorded(signInAudit(audit, user, 'succeeded'), (tx) => this.users.recordSignIn(tx, user.id, this.clock.now()));
    return { ...session, userId: user.id, email: user.email, merchantId: user.merchant_id, role: user.role, testOnly: user.test_only };
  }
}

/** A sign-in's row: the user as actor and object, in the merchant's account log (no mode). */
function signInAudit(audit: RequestAudit, user: DashboardUserEntity, status: AuditStatus): AuditContext {
  return {
    ...inTenant(audit, user.merchant_id, null),
    actor: { type: 'user', id: user.id, label: user.email },
    object: { type: 'dashboard_user', id: user.id },
    status,
  };
}

export function normaliseEmail(email: string): string {
  const trimmed = email.trim().toLowerCase();
  if (!EMAIL.test(trimmed) || trimmed.length > 254) throw new ApiError(ErrorCode.INVALID_PARAMETER, 'email must be an email address', 'email');
  return trimmed;
}
