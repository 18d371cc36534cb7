import { SessionCookie } from '../auth/session-cookie';

/** The dashboard's session cookie (DESIGN §11): `eh_session`, `__Host-eh_session` under https. */
export class DashboardCookie extends SessionCookie {
  constructor(secure: boolean) {
    super('eh_session', secure);
  }
}
