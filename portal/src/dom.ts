/**
 * The one way the portal makes elements: text only ever goes in through textContent, and
 * attributes are set one by one, so nothing a merchant or customer typed is parsed as HTML.
 */
export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  options: { className?: string; text?: string; attributes?: Record<string, string> } = {},
  ...children: Array<Node | null>
): HTMLElementTagNameMap[K] {
  const created = document.createElement(tag);
  if (options.className) created.className = options.className;
  if (options.text !== undefined) created.textContent = options.text;
  for (const [name, value] of Object.entries(options.attributes ?? {})) created.setAttribute(name, value);
  for (const child of children) if (child) created.append(child);
  return created;
}

export function byId<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`#${id} is missing from index.html`);
  return found as T;
}

/** Only web addresses become links: a `javascript:` or `data:` URL is never clickable. */
export function safeHref(url: string | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.toString() : null;
  } catch {
    return null;
  }
}

const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'];

export function formatSize(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} ${UNITS[0]}` : `${value.toFixed(value < 10 ? 1 : 0)} ${UNITS[unit]}`;
}

export function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}
