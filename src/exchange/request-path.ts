/** The path of a request URL, without its query string. */
export function pathOf(url: string): string {
  const queryStart = url.indexOf('?');
  return queryStart === -1 ? url : url.slice(0, queryStart);
}

/**
 * No id or store id this API serves is longer than 255 characters; a segment over four times that
 * names nothing: a 404 before routing, authentication or any lookup. (Shorter unknown ids reach
 * their route, whose 404 names the resource.)
 */
export const MAX_PATH_SEGMENT_LENGTH = 1_024;

/**
 * Why a request path can name no resource, or null: a malformed percent-encoding, a NUL
 * character (which no record can hold) or an overlong segment. Checked before routing and
 * authentication, so both adapters answer these alike (404 NOT_FOUND), key or not.
 */
export function pathProblem(path: string): string | null {
  // Almost every path is plain ASCII without escapes: nothing to decode, only lengths to check.
  const hasEscapes = path.includes('%');
  for (const segment of path.split('/')) {
    if (!hasEscapes || !segment.includes('%')) {
      if (segment.length > MAX_PATH_SEGMENT_LENGTH) return `No such resource: a path segment is longer than ${MAX_PATH_SEGMENT_LENGTH} characters`;
      continue;
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return 'No such resource: the path has a malformed percent-encoding';
    }
    if (decoded.includes('\u0000')) return 'No such resource: the path contains a NUL character';
    if (decoded.length > MAX_PATH_SEGMENT_LENGTH) return `No such resource: a path segment is longer than ${MAX_PATH_SEGMENT_LENGTH} characters`;
  }
  return null;
}
