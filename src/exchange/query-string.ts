import { isUtf8 } from 'node:buffer';
import * as querystring from 'node:querystring';
import type { ParsedUrlQuery } from 'node:querystring';

/** Node's own percent-decoder to bytes (public, though @types/node leaves it out). */
const unescapeBuffer = (querystring as unknown as { unescapeBuffer(text: string): Buffer }).unescapeBuffer;

/**
 * Percent-decodes one name or value. Bytes that are not UTF-8 (`%ED%A0%80`, half a surrogate
 * pair, or any broken sequence) would silently become U+FFFD; they become a lone surrogate
 * instead, which the input rules refuse as a 400 naming the parameter (refuseUnstorableText),
 * exactly as a lone surrogate in a JSON body is.
 */
function decodeComponent(text: string): string {
  const bytes = unescapeBuffer(text);
  return isUtf8(bytes) ? bytes.toString('utf8') : `\ud800${bytes.toString('utf8')}`;
}

/** The query string parser of both adapters (node:querystring's rules, UTF-8 checked). */
export function parseQueryString(text: string): ParsedUrlQuery {
  return querystring.parse(text, '&', '=', { decodeURIComponent: decodeComponent });
}
