/**
 * Requests a newcomer is likely to try that the API answers differently: the 404 for the unknown
 * route says where to go instead. Each hint is built from the request path (the id it names).
 */
const ROUTE_HINTS: ReadonlyArray<{ method: string; path: RegExp; hint: (match: RegExpMatchArray) => string }> = [
  {
    method: 'DELETE',
    path: /^\/v1\/entitlements\/([^/]+)\/?$/,
    hint: ([, entitlementId]) => `entitlements are never deleted, so their history stays; to end access, POST /v1/entitlements/${entitlementId}/revoke`,
  },
];

/** The "No route" message, with a pointer to the right route where a hint knows one. */
export function unknownRouteMessage(method: string, path: string): string {
  const base = `No route ${method} ${path}`;
  for (const hint of ROUTE_HINTS) {
    const match = method === hint.method ? path.match(hint.path) : null;
    if (match) return `${base}; ${hint.hint(match)}`;
  }
  return base;
}
