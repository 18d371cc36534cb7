import type { IncomingHttpHeaders } from 'node:http';

/**
 * A browser session's cookie (DESIGN §11, §19): httpOnly, SameSite=Lax, Path=/, no Max-Age (it
 * ends with the browser; the server ends it after its idle time). Under https it is `Secure` and
 * named with the `__Host-` prefix, which browsers only accept from a secure origin with Path=/ and
 * no Domain: no subdomain can plant or overwrite it. The dashboard's and the portal's differ only
 * by name, so neither session is ever read as the other.
 */
export class SessionCookie {
  readonly name: string;

  constructor(
    baseName: string,
    private readonly secure: boolean,
  ) {
    this.name = secure ? `__Host-${baseName}` : baseName;
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
