import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { NavLink, Route, Routes, useLocation } from 'react-router-dom';
import { setCsrfToken, setMode } from './api/client';
import { dashboardApi, type Mode, type Session } from './api/dashboard';
import { Loading } from './components';
import { ApiKeysPage } from './pages/ApiKeysPage';
import { CustomersPage } from './pages/CustomersPage';
import { EntitlementsPage } from './pages/EntitlementsPage';
import { EventsPage } from './pages/EventsPage';
import { OrdersPage } from './pages/OrdersPage';
import { OverviewPage } from './pages/OverviewPage';
import { ProductsPage } from './pages/ProductsPage';
import { SetupPage, SignInPage } from './pages/SignInPage';
import { WebhooksPage } from './pages/WebhooksPage';

const PAGES = [
  { path: '/', label: 'Overview' },
  { path: '/products', label: 'Products' },
  { path: '/customers', label: 'Customers' },
  { path: '/entitlements', label: 'Entitlements' },
  { path: '/orders', label: 'Orders' },
  { path: '/webhooks', label: 'Webhooks' },
  { path: '/events', label: 'Events' },
  { path: '/settings/api-keys', label: 'Settings → API keys' },
];

export function App() {
  const location = useLocation();
  const session = useQuery({
    queryKey: ['session'],
    queryFn: async () => {
      try {
        const found = await dashboardApi.session();
        setCsrfToken(found.csrf_token);
        return found;
      } catch {
        return null;
      }
    },
  });
  if (location.pathname === '/setup') return <SetupPage />;
  if (session.isPending) return <Loading what="your session" />;
  if (!session.data) return <SignInPage />;
  return <SignedIn session={session.data} />;
}

function SignedIn({ session }: { session: Session }) {
  const queryClient = useQueryClient();
  // This tab's mode, sent as Eh-Mode on every request (the session holds none).
  const [mode, setModeState] = useState<Mode>('test');
  const switchMode = async (next: Mode) => {
    setMode(next);
    setModeState(next);
    // Every cached answer belongs to the other mode now.
    await queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== 'session' });
  };
  const signOut = async () => {
    await dashboardApi.signOut().catch(() => undefined);
    queryClient.clear();
    queryClient.setQueryData(['session'], null);
  };
  return (
    <div className={`shell mode-${mode}`}>
      <header>
        <a className="skip" href="#main">
          Skip to content
        </a>
        <strong>Dashboard</strong>
        <div className="mode-switch" role="group" aria-label="Test or live mode">
          {(['test', 'live'] as const).map((option) => (
            <button key={option} type="button" aria-pressed={mode === option} onClick={() => void switchMode(option)}>
              {option === 'test' ? 'Test mode' : 'Live mode'}
            </button>
          ))}
        </div>
        <span className="who">{session.email}</span>
        <button type="button" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      {mode === 'test' && (
        <p className="test-banner" role="note">
          Test mode: you are viewing and changing test data only.
        </p>
      )}
      <nav aria-label="Pages">
        <ul>
          {PAGES.map((page) => (
            <li key={page.path}>
              <NavLink to={page.path} end={page.path === '/'}>
                {page.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main">
        <Routes>
          <Route path="/" element={<OverviewPage />} />
          <Route path="/products" element={<ProductsPage />} />
          <Route path="/customers" element={<CustomersPage />} />
          <Route path="/entitlements" element={<EntitlementsPage />} />
          <Route path="/orders" element={<OrdersPage />} />
          <Route path="/webhooks" element={<WebhooksPage />} />
          <Route path="/events" element={<EventsPage />} />
          <Route path="/settings/api-keys" element={<ApiKeysPage />} />
          <Route path="*" element={<OverviewPage />} />
        </Routes>
      </main>
    </div>
  );
}
