import contentDisposition from 'content-disposition';

/**
 * `attachment` with the name as RFC 6266 / RFC 5987 want it: an ASCII `filename` fallback and, for
 * anything else, `filename*=UTF-8''…`, so every client gets a safe header and the real name.
 */
export function attachmentDisposition(fileName: string): string {
  const asciiFallback = fileName.replace(/[^\x20-\x7e]/g, '_');
  return contentDisposition(fileName, { type: 'attachment', fallback: asciiFallback });
}
