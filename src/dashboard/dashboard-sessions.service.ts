import { BeforeApplicationShutdown, Injectable, OnModuleInit } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { ApiKeyCache, UNKNOWN_API_KEY_TTL_MILLISECONDS } from '../auth/api-key-cache';
import { CredentialChecksum } from '../auth/credential-checksum';
import type { DashboardSessionCredential } from '../auth/auth-context';
import type { DashboardSessionLookup } from '../auth/dashboard-session-lookup';
import type { SecretCredential } from '../auth/guessing-rules';
import { LegacyCredentialFilter } from '../auth/legacy-credential-filter';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { DashboardCookie } from './dashboard-cookie';
import { DashboardSessionsRepository, SessionWithUser } from './dashboard-sessions.repository';
import type { Transaction } from '../database/transaction';
import { UnitOfWork } from '../database/unit-of-work';

/** DESIGN §11: a session ends after 12 hours without a request. */
export const SESSION_IDLE_MILLISECONDS = 12 * 60 * 60 * 1000;
/** last_seen_at is written at most this often, to keep a write off most requests. */
const TOUCH_INTERVAL_MILLISECONDS = 60_000;

export const hashSessionToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export interface StartedSession {
  /** The cookie's value; only its hash is stored. */
  token: string;
  csrfToken: string;
}

/** Database-backed dashboard sessions; the request authenticator resolves cookies through this. */
@Injectable()
export class DashboardSessionsService implements DashboardSessionLookup, OnModuleInit, BeforeApplicationShutdown {
  private readonly plainCookie = new DashboardCookie(false);
  private readonly secureCookie = new DashboardCookie(true);
  private readonly alwaysSecure: boolean;
  private readonly enabled: boolean;
  /** Cookies that named no open session, remembered so a spray of them reaches the database once each. */
  private readonly unknownTokens = new ApiKeyCache<true>(UNKNOWN_API_KEY_TTL_MILLISECONDS);
  /** Open sessions whose token has no checksum (started before it existed, or by an older version). */
  private readonly legacyTokens: LegacyCredentialFilter;

  constructor(
    private readonly sessions: DashboardSessionsRepository,
    private readonly clock: Clock,
    private readonly checksum: CredentialChecksum,
    private readonly unitOfWork: UnitOfWork,
    config: AppConfig,
  ) {
    this.alwaysSecure = config.publicBaseUrl.startsWith('https:');
    this.enabled = config.dashboardEnabled;
    this.legacyTokens = new LegacyCredentialFilter('legacy dashboard session', () => this.sessions.listLegacyTokenHashes(this.unitOfWork.pool));
  }

  async onModuleInit(): Promise<void> {
    await this.legacyTokens.start();
  }

  beforeApplicationShutdown(): void {
    this.legacyTokens.stop();
  }

  /**
   * The cookie of a request: `Secure` and `__Host-` when PUBLIC_BASE_URL is https, or when the
   * request came over https (its own TLS, or X-Forwarded-Proto from a trusted proxy, DESIGN §15).
   */
  cookieFor(secure: boolean): DashboardCookie {
    return secure || this.alwaysSecure ? this.secureCookie : this.plainCookie;
  }

  async start(userId: string, merchantId: string): Promise<StartedSession> {
    // 32 random bytes and the keyed checksum that lets a guessed cookie be refused without a lookup.
    const token = this.checksum.seal(randomBytes(32).toString('base64url'));
    const csrfToken = randomBytes(32).toString('base64url');
    await this.unitOfWork.run((tx) => this.sessions.create(tx, { tokenHash: hashSessionToken(token), userId, merchantId, csrfToken, now: this.clock.now() }));
    return { token, csrfToken };
  }

  /** DASHBOARD_ENABLED=false: session cookies are not credentials at all. */
  tokenFrom(headers: IncomingHttpHeaders, secure: boolean): string | null {
    return this.enabled ? this.cookieFor(secure).tokenFrom(headers) : null;
  }

  /** A presented cookie as known before any lookup; GuessingRules decides whether it is looked up. */
  credential(token: string): SecretCredential<DashboardSessionCredential> {
    const hash = hashSessionToken(token);
    return {
      cached: this.unknownTokens.get(hash) ? null : undefined,
      plausible: this.checksum.holds(token) || this.legacyTokens.has(hash),
      lookUp: async () => {
        const found = await this.resolve(token);
        if (!found) this.unknownTokens.set(hash, true);
        return found;
      },
    };
  }

  private async resolve(token: string): Promise<DashboardSessionCredential | null> {
    const session = await this.sessions.findOpenByTokenHash(this.unitOfWork.pool, hashSessionToken(token));
    if (!session) return null;
    const now = this.clock.now();
    const idle = now.getTime() - session.last_seen_at.getTime();
    if (idle > SESSION_IDLE_MILLISECONDS) {
      await this.unitOfWork.run((tx) => this.sessions.end(tx, session.id, now));
      return null;
    }
    if (idle > TOUCH_INTERVAL_MILLISECONDS) await this.unitOfWork.run((tx) => this.sessions.touch(tx, session.id, now));
    return toResolved(session);
  }

  /** Ends one session (sign-out). */
  end(sessionId: string): Promise<void> {
    return this.unitOfWork.run((tx) => this.sessions.end(tx, sessionId, this.clock.now()));
  }

  /** Ends the user's sessions at once, on every instance (each request reads its session's row), in the caller's transaction (a password set by a setup link). */
  endAllOfUser(tx: Transaction, userId: string, exceptSessionId: string | null = null): Promise<void> {
    return this.sessions.endAllOfUser(tx, userId, this.clock.now(), exceptSessionId);
  }
}

function toResolved(session: SessionWithUser): DashboardSessionCredential {
  return { sessionId: session.id, merchantId: session.merchant_id, userId: session.user_id, email: session.user.email, csrfToken: session.csrf_token, role: session.user.role, testOnly: session.user.test_only };
}
