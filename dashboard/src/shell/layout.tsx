import { useEffect, useState } from 'react';
import { Link, Navigate, NavLink, Outlet, useLocation, useNavigation, useParams } from 'react-router';
import { isMode, MODES, type Mode } from '../api/client';
import { lastMode, rememberMode } from '../lib/mode';
import { SearchBox } from './search-box';
import { useSession, useSignOut } from './session';

/** `scope`: shown only to a role holding it (the server refuses the page's request anyway). */
const PAGES: Array<{ path: string; label: string; scope?: 'audit:read' }> = [
  { path: '', label: 'Overview' },
  { path: 'products', label: 'Products' },
  { path: 'customers', label: 'Customers' },
  { path: 'entitlements', label: 'Entitlements' },
  { path: 'orders', label: 'Orders' },
  { path: 'subscriptions', label: 'Subscriptions' },
  { path: 'files', label: 'Files' },
  { path: 'webhooks', label: 'Webhooks' },
  { path: 'events', label: 'Events' },
  { path: 'audit-log', label: 'Audit log', scope: 'audit:read' },
  { path: 'billing', label: 'Billing' },
  { path: 'settings/api-keys', label: 'API keys' },
  { path: 'settings/team', label: 'Team' },
  { path: 'settings/portal', label: 'Portal' },
];

const ID_SEGMENT = /^[a-z]+_[0-9a-z]{6,}$/i;

/**
 * The same page in another mode: the section stays, a record's id goes (records belong to one mode).
 * `/test/products/prod_01…` → `/live/products`.
 */
export function samePageIn(mode: Mode, pathname: string): string {
  const segments = pathname.split('/').filter(Boolean).slice(1);
  const kept: string[] = [];
  for (const segment of segments) {
    if (ID_SEGMENT.test(segment) || segment === 'new') break;
    kept.push(segment);
  }
  return `/${[mode, ...kept].join('/')}`;
}

/** Only a valid mode renders pages; `/dashboard/products` and other old addresses gain one. */
export function ModeGate() {
  const { mode } = useParams();
  const location = useLocation();
  useEffect(() => {
    if (isMode(mode)) rememberMode(mode);
  }, [mode]);
  if (!isMode(mode)) return <Navigate to={`/${lastMode()}${location.pathname === '/' ? '' : location.pathname}${location.search}`} replace />;
  return <Layout mode={mode} />;
}

export function RedirectToMode() {
  return <Navigate to={`/${lastMode()}`} replace />;
}

function Layout({ mode }: { mode: Mode }) {
  const session = useSession();
  const signOut = useSignOut();
  const location = useLocation();
  const navigation = useNavigation();
  const [menuOpen, setMenuOpen] = useState(false);
  // A chosen page closes the phone menu.
  useEffect(() => setMenuOpen(false), [location.pathname]);
  useEffect(() => {
    const icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (icon) icon.href = `${import.meta.env.BASE_URL}${mode === 'test' ? 'favicon-test.svg' : 'favicon.svg'}`;
    document.documentElement.dataset.mode = mode;
  }, [mode]);
  return (
    <div className={`app mode-${mode}`}>
      <a className="skip" href="#main">
        Skip to content
      </a>
      {navigation.state === 'loading' && <div className="progress" role="progressbar" aria-label="Loading the page" />}
      {mode === 'test' && (
        <p className="test-band" role="note">
          <strong>Test mode</strong> <span>You are viewing and changing test data only. Live customers never see it.</span>
        </p>
      )}
      <header className="topbar">
        <button type="button" className="menu-button secondary" aria-expanded={menuOpen} aria-controls="nav" onClick={() => setMenuOpen((open) => !open)}>
          Menu
        </button>
        <Link to={`/${mode}`} className="brand">
          <img src={`${import.meta.env.BASE_URL}favicon.svg`} alt="" width={24} height={24} />
          <span className="merchant-name">{session.merchant_name ?? 'Your business'}</span>
        </Link>
        <nav className="mode-switch" aria-label="Mode">
          {MODES.map((target) => (
            <Link key={target} to={samePageIn(target, location.pathname)} aria-current={target === mode ? 'true' : undefined} className={`mode-${target}`}>
              {target === 'test' ? 'Test' : 'Live'}
            </Link>
          ))}
        </nav>
        <SearchBox />
        <div className="account">
          <span className="email" title={`${session.email} (${session.role}${session.test_only ? ', test mode only' : ''})`}>
            {session.email}
          </span>
          <button type="button" className="secondary small" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <nav id="nav" aria-label="Pages" className={menuOpen ? 'sidebar open' : 'sidebar'}>
        <ul>
          {PAGES.filter((page) => page.scope === undefined || session.scopes.includes(page.scope)).map((page) => (
            <li key={page.path} className={page.path === 'settings/api-keys' ? 'group-start' : undefined}>
              <NavLink to={page.path ? `/${mode}/${page.path}` : `/${mode}`} end={page.path === ''}>
                {page.path.startsWith('settings/') ? `Settings · ${page.label}` : page.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        {session.test_only && mode === 'live' ? (
          <section className="notice" role="status">
            <h1>Test mode only</h1>
            <p>
              Your role is limited to test mode: live data isn’t shown to you. <Link to={samePageIn('test', location.pathname)}>Open this page in test mode</Link>.
            </p>
          </section>
        ) : (
          <Outlet />
        )}
      </main>
    </div>
  );
}
