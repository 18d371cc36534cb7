import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { DashboardSessionLookup, ResolvedDashboardSession } from '../auth/dashboard-session-lookup';
import { ALL_SCOPES_WILDCARD } from '../auth/scopes';
import type { ApiMode } from '../database/tenant';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { DashboardCookie } from './dashboard-cookie';
import { DashboardSessionsRepository, SessionWithUser } from './dashboard-sessions.repository';

/** DESIGN §11: a session ends after 12 hours without a request. */
export const SESSION_IDLE_MILLISECONDS = 12 * 60 * 60 * 1000;
/** last_seen_at is written at most this often, to keep a write off most requests. */
const TOUCH_INTERVAL_MILLISECONDS = 60_000;

export const hashSessionToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export interface StartedSession {
  /** The cookie's value; only its hash is stored. */
  token: string;
  csrfToken: string;
  mode: ApiMode;
}

/** Database-backed dashboard sessions; the request authenticator resolves cookies through this. */
@Injectable()
export class DashboardSessionsService implements DashboardSessionLookup {
  readonly cookie: DashboardCookie;
  private readonly enabled: boolean;

  constructor(
    private readonly sessions: DashboardSessionsRepository,
    private readonly clock: Clock,
    config: AppConfig,
  ) {
    this.cookie = new DashboardCookie(config.publicBaseUrl.startsWith('https:'));
    this.enabled = config.dashboardEnabled;
  }

  /** Test mode first: a fresh session can't touch live records until the person switches. */
  async start(userId: string, merchantId: string): Promise<StartedSession> {
    const token = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(32).toString('base64url');
    await this.sessions.create({ tokenHash: hashSessionToken(token), userId, merchantId, mode: 'test', csrfToken, now: this.clock.now() });
    return { token, csrfToken, mode: 'test' };
  }

  /** DASHBOARD_ENABLED=false: session cookies are not credentials at all. */
  tokenFrom(headers: IncomingHttpHeaders): string | null {
    return this.enabled ? this.cookie.tokenFrom(headers) : null;
  }

  async resolve(token: string): Promise<ResolvedDashboardSession | null> {
    const session = await this.sessions.findOpenByTokenHash(hashSessionToken(token));
    if (!session) return null;
    const now = this.clock.now();
    const idle = now.getTime() - session.last_seen_at.getTime();
    if (idle > SESSION_IDLE_MILLISECONDS) {
      await this.sessions.end(session.id, now);
      return null;
    }
    if (idle > TOUCH_INTERVAL_MILLISECONDS) await this.sessions.touch(session.id, now);
    return toResolved(session);
  }

  end(sessionId: string): Promise<void> {
    return this.sessions.end(sessionId, this.clock.now());
  }

  setMode(sessionId: string, mode: ApiMode): Promise<void> {
    return this.sessions.setMode(sessionId, mode);
  }
}

/** A session acts as a key with every scope in its mode (DESIGN §11). */
function toResolved(session: SessionWithUser): ResolvedDashboardSession {
  const tenant = { merchantId: session.merchant_id, mode: session.mode };
  return {
    auth: {
      credential: 'dashboard-session',
      credentialId: session.id,
      merchantId: session.merchant_id,
      mode: session.mode,
      scopes: new Set([ALL_SCOPES_WILDCARD]),
      tenant,
    },
    session: { sessionId: session.id, userId: session.user_id, email: session.user.email, csrfToken: session.csrf_token },
  };
}
