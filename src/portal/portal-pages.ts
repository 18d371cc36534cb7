import { createHash } from 'node:crypto';

/**
 * The pages a portal link answers with when it starts no session (DESIGN §19: a used or expired
 * link shows a page that says so). Plain HTML with one inline style, allowed by its hash: the
 * page runs no script at all.
 */
const STYLE =
  'body{font-family:system-ui,sans-serif;margin:0;padding:2rem 1rem;color:#1a1a1a;background:#f6f7f9}' +
  'main{max-width:32rem;margin:0 auto;background:#fff;border:1px solid #dde1e6;border-radius:8px;padding:1.5rem}' +
  'h1{font-size:1.4rem;margin:0 0 .75rem}p{line-height:1.5;margin:.5rem 0}';
const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/** The link pages' policy: nothing but their own inline style. */
export const PORTAL_MESSAGE_PAGE_POLICY = `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;

export interface PortalMessage {
  status: number;
  title: string;
  body: string;
}

export const LINK_USED: PortalMessage = {
  status: 410,
  title: 'This link was already used',
  body: 'Each portal link works once. Go back to the shop and open your downloads again to get a new link.',
};

export const LINK_EXPIRED: PortalMessage = {
  status: 410,
  title: 'This link expired',
  body: 'Portal links work for one hour. Go back to the shop and open your downloads again to get a new link.',
};

export const LINK_UNKNOWN: PortalMessage = {
  status: 404,
  title: 'This link is not valid',
  body: 'Check that the whole link was copied, or go back to the shop and open your downloads again.',
};

export const TOO_MANY_ATTEMPTS: PortalMessage = {
  status: 429,
  title: 'Too many attempts',
  body: 'Too many invalid links were opened from your network. Wait a minute and try again.',
};

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (character) => ESCAPES[character]);

export function renderMessagePage(message: PortalMessage): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">' +
    `<title>${escapeHtml(message.title)}</title><style>${STYLE}</style></head>` +
    `<body><main><h1>${escapeHtml(message.title)}</h1><p>${escapeHtml(message.body)}</p></main></body></html>`
  );
}
