import type { IncomingHttpHeaders } from 'node:http';

/**
 * The session cookie (DESIGN §11): httpOnly, SameSite=Lax, Path=/, no Max-Age (it ends with the
 * browser; the server ends it after 12 idle hours). Under https (PUBLIC_BASE_URL https://…) it is
 * `Secure` and named with the `__Host-` prefix, which browsers only accept from a secure origin
 * with Path=/ and no Domain: no subdomain can plant or overwrite it.
 */
export class DashboardCookie {
  readonly name: string;

  constructor(private readonly secure: boolean) {
    this.name = secure ? '__Host-eh_session' : 'eh_session';
  }

  serialize(token: string): string {
    return [`${this.name}=${token}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', ...(this.secure ? ['Secure'] : [])].join('; ');
  }

  /** Tells the browser to forget the cookie (sign-out). */
  cleared(): string {
    return [`${this.name}=`, 'Path=/', 'HttpOnly', 'SameSite=Lax', 'Max-Age=0', ...(this.secure ? ['Secure'] : [])].join('; ');
  }

  tokenFrom(headers: IncomingHttpHeaders): string | null {
    const header = headers.cookie;
    if (!header) return null;
    for (const part of header.split(';')) {
      const separator = part.indexOf('=');
      if (separator === -1) continue;
      if (part.slice(0, separator).trim() === this.name) {
        const value = part.slice(separator + 1).trim();
        return value.length > 0 && value.length <= 128 ? value : null;
      }
    }
    return null;
  }
}
