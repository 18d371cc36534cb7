import type { IncomingHttpHeaders } from 'node:http';

/** The token of `Authorization: Bearer <token>`; a key anywhere else (query string, other headers) doesn't count. */
export function bearerToken(headers: IncomingHttpHeaders): string | null {
  const header = headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}
