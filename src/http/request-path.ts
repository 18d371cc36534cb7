/** The path of a request URL, without its query string (Fastify's `url` keeps both). */
export function pathOf(url: string): string {
  const queryStart = url.indexOf('?');
  return queryStart === -1 ? url : url.slice(0, queryStart);
}
