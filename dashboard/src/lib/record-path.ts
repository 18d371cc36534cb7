/**
 * Where the dashboard shows a record, by its id's prefix: the one map every link to a record uses
 * (search results, an event's "About", ids inside a payload). Files and imports have no page of
 * their own: their list is where they are shown.
 */
const SECTIONS: Record<string, { section: string; ownPage: boolean }> = {
  cus: { section: 'customers', ownPage: true },
  ent: { section: 'entitlements', ownPage: true },
  prod: { section: 'products', ownPage: true },
  ord: { section: 'orders', ownPage: true },
  sub: { section: 'subscriptions', ownPage: true },
  evt: { section: 'events', ownPage: true },
  we: { section: 'webhooks', ownPage: true },
  file: { section: 'files', ownPage: false },
  imp: { section: 'imports', ownPage: false },
};

/** The record's path under the mode (`customers/cus_…`), or null for an id the dashboard shows nowhere. */
export function recordPath(id: string): string | null {
  const separator = id.indexOf('_');
  const place = separator > 0 ? SECTIONS[id.slice(0, separator)] : undefined;
  if (!place) return null;
  return place.ownPage ? `${place.section}/${id}` : place.section;
}

/** Our ids inside text (a payload): a known prefix and a 26-character base32 suffix (src/ids/id.ts). */
export const RECORD_ID_IN_TEXT = new RegExp(`\\b(?:${Object.keys(SECTIONS).join('|')})_[0-7][0-9a-hjkmnp-tv-z]{25}\\b`, 'g');
