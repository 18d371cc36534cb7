import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { DashboardSessionCredential } from '../auth/auth-context';
import type { DashboardSessionLookup } from '../auth/dashboard-session-lookup';
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

  async start(userId: string, merchantId: string): Promise<StartedSession> {
    const token = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(32).toString('base64url');
    await this.sessions.create({ tokenHash: hashSessionToken(token), userId, merchantId, csrfToken, now: this.clock.now() });
    return { token, csrfToken };
  }

  /** DASHBOARD_ENABLED=false: session cookies are not credentials at all. */
  tokenFrom(headers: IncomingHttpHeaders): string | null {
    return this.enabled ? this.cookie.tokenFrom(headers) : null;
  }

  async resolve(token: string): Promise<DashboardSessionCredential | null> {
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
}

function toResolved(session: SessionWithUser): DashboardSessionCredential {
  return { sessionId: session.id, merchantId: session.merchant_id, userId: session.user_id, email: session.user.email, csrfToken: session.csrf_token };
}
