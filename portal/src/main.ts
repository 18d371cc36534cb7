import './styles.css';
import { deactivate, Entitlement, LicenseKey, loadEntitlements, loadLicenseKeys, loadSession, PortalError, requestDownload, Session } from './api';
import { byId, element, formatDate, formatSize, safeHref } from './dom';

const STATUS_LABELS: Record<string, string> = { active: 'Active', expired: 'Expired', suspended: 'Suspended', revoked: 'Revoked', pending: 'Pending' };
const statusLabel = (status: string) => STATUS_LABELS[status] ?? status;

const statusLine = byId<HTMLParagraphElement>('status');

function say(message: string, isError = false): void {
  statusLine.textContent = message;
  statusLine.classList.toggle('error', isError);
  statusLine.hidden = message === '';
}

/** What a refusal means to the customer: an ended session needs a new link from the shop. */
function explain(error: unknown): string {
  if (error instanceof PortalError && error.code === 'INVALID_SESSION') return 'Your session has ended. Go back to the shop and open your purchases again.';
  if (error instanceof PortalError) return error.message;
  return 'Something went wrong. Check your connection and try again.';
}

/** #rrggbb only (the API's rule), with a text colour that keeps contrast on it. */
function applyBranding(session: Session): void {
  const { branding } = session;
  const name = branding.display_name ?? '';
  byId('merchant-name').textContent = name;
  document.title = name ? `Your purchases · ${name}` : 'Your purchases';
  const accent = branding.accent_color;
  if (accent && /^#[0-9a-fA-F]{6}$/.test(accent)) {
    const [red, green, blue] = [1, 3, 5].map((start) => parseInt(accent.slice(start, start + 2), 16) / 255).map((channel) => (channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4));
    const luminance = 0.2126 * red + 0.7152 * green + 0.0722 * blue;
    document.documentElement.style.setProperty('--accent', accent);
    document.documentElement.style.setProperty('--on-accent', luminance > 0.35 ? '#111111' : '#ffffff');
  }
  const logo = byId<HTMLImageElement>('logo');
  const logoUrl = safeHref(branding.logo_url);
  if (logoUrl) {
    logo.src = logoUrl;
    logo.alt = name ? `${name} logo` : 'Logo';
    logo.hidden = false;
  }
  for (const [id, url] of [['support-link', branding.support_url], ['back-link', session.return_url]] as const) {
    const link = byId<HTMLAnchorElement>(id);
    const href = safeHref(url);
    if (href) {
      link.href = href;
      link.hidden = false;
    }
  }
  byId('mode-badge').hidden = session.livemode;
  document.body.classList.toggle('test-mode', !session.livemode);
}

function dates(entitlement: Entitlement): string {
  const granted = `Since ${formatDate(entitlement.granted_at)}`;
  if (!entitlement.expires_at) return granted;
  const ends = new Date(entitlement.expires_at).getTime() < Date.now() ? 'ended' : 'until';
  return `${granted}, ${ends} ${formatDate(entitlement.expires_at)}`;
}

function downloadButton(entitlement: Entitlement, file: { id: string; file_name: string }): HTMLButtonElement {
  const button = element('button', { className: 'button', text: 'Download', attributes: { type: 'button', 'aria-label': `Download ${file.file_name}` } });
  button.addEventListener('click', () => {
    button.disabled = true;
    requestDownload(entitlement.id, file.id)
      .then(({ download_url }) => {
        say('');
        // A navigation, not a fetch: the browser saves the file (Content-Disposition: attachment).
        window.location.assign(download_url);
      })
      .catch((error: unknown) => say(explain(error), true))
      .finally(() => {
        button.disabled = false;
      });
  });
  return button;
}

function deliveryOf(entitlement: Entitlement): HTMLElement | null {
  const delivery = entitlement.delivery;
  if (!delivery) return null;
  if (delivery.method === 'URL') {
    const href = safeHref(delivery.url);
    return href ? element('p', {}, element('a', { className: 'button link-button', text: 'Open', attributes: { href, target: '_blank', rel: 'noopener noreferrer' } })) : null;
  }
  if (delivery.method === 'INSTRUCTIONS') return element('p', { className: 'instructions', text: delivery.instructions ?? '' });
  if (delivery.files.length === 0) return element('p', { className: 'muted', text: 'The files are not ready yet.' });
  return element(
    'ul',
    { className: 'files' },
    ...delivery.files.map((file) =>
      element('li', { className: 'file' }, element('span', { className: 'file-name', text: file.file_name }), element('span', { className: 'muted', text: formatSize(file.file_size) }), downloadButton(entitlement, file)),
    ),
  );
}

function entitlementCard(entitlement: Entitlement): HTMLLIElement {
  return element(
    'li',
    { className: 'card', attributes: { 'data-entitlement-id': entitlement.id } },
    element('h3', { text: entitlement.product_name }),
    entitlement.description ? element('p', { className: 'description', text: entitlement.description }) : null,
    element('p', { className: 'meta' }, element('span', { className: `badge status-${entitlement.status}`, text: statusLabel(entitlement.status) }), document.createTextNode(` ${dates(entitlement)}`)),
    deliveryOf(entitlement),
  );
}

function copyButton(key: string): HTMLButtonElement {
  const button = element('button', { className: 'button secondary', text: 'Copy', attributes: { type: 'button', 'aria-label': 'Copy the license key' } });
  button.addEventListener('click', () => {
    navigator.clipboard.writeText(key).then(
      () => say('The license key is copied.'),
      () => say('Select the key and copy it.', true),
    );
  });
  return button;
}

function keyCard(license: LicenseKey, productNames: Map<string, string>, reload: () => void): HTMLLIElement {
  const limit = license.activation_limit === null ? 'no limit' : `of ${license.activation_limit}`;
  const devices = license.activations.map((activation) => {
    const button = element('button', { className: 'button secondary', text: 'Deactivate', attributes: { type: 'button', 'aria-label': `Deactivate ${activation.name ?? activation.fingerprint}` } });
    button.addEventListener('click', () => {
      button.disabled = true;
      deactivate(license.id, activation.id)
        .then(() => {
          say(`${activation.name ?? activation.fingerprint} is deactivated.`);
          reload();
        })
        .catch((error: unknown) => {
          button.disabled = false;
          say(explain(error), true);
        });
    });
    return element(
      'li',
      { className: 'device', attributes: { 'data-activation-id': activation.id } },
      element('span', { className: 'device-name', text: activation.name ?? activation.fingerprint }),
      element('span', { className: 'muted', text: `Last seen ${formatDate(activation.last_seen_at)}` }),
      button,
    );
  });
  return element(
    'li',
    { className: 'card', attributes: { 'data-license-key-id': license.id } },
    element('h3', { text: productNames.get(license.product_id) ?? 'License key' }),
    element('p', { className: 'key-row' }, element('code', { className: 'license-key', text: license.key }), copyButton(license.key)),
    element('p', { className: 'meta' }, element('span', { className: `badge status-${license.status}`, text: statusLabel(license.status) }), document.createTextNode(` ${license.activations_count} device(s) ${limit}`)),
    devices.length > 0 ? element('ul', { className: 'devices', attributes: { 'aria-label': 'Devices' } }, ...devices) : element('p', { className: 'muted', text: 'No device uses this key.' }),
  );
}

function fill(sectionId: string, listId: string, items: HTMLLIElement[]): void {
  byId(listId).replaceChildren(...items);
  byId(sectionId).hidden = items.length === 0;
}

async function render(): Promise<void> {
  const [entitlements, keys] = await Promise.all([loadEntitlements(), loadLicenseKeys()]);
  const productNames = new Map([...entitlements.active, ...entitlements.inactive].map((entitlement) => [entitlement.product_id, entitlement.product_name]));
  fill('active-section', 'active-list', entitlements.active.map(entitlementCard));
  fill('inactive-section', 'inactive-list', entitlements.inactive.map(entitlementCard));
  fill('keys-section', 'keys-list', keys.map((key) => keyCard(key, productNames, () => void render().catch((error: unknown) => say(explain(error), true)))));
  if (entitlements.active.length + entitlements.inactive.length === 0) say('You have no purchases yet.');
}

async function start(): Promise<void> {
  try {
    applyBranding(await loadSession());
    await render();
    if (statusLine.textContent === 'Loading…') say('');
  } catch (error) {
    say(explain(error), true);
  }
}

void start();
