import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { failure, http, ok, page, product, resetSent, SESSION, sent, sentTo, server } from '../../test/api-mock';
import { createRoutes } from '../router';
import { samePageIn } from './layout';
import { createQueryClient } from './session';

function renderApp(url: string) {
  const queryClient = createQueryClient();
  const router = createMemoryRouter(createRoutes(), { initialEntries: [url] });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { queryClient, router, user: userEvent.setup() };
}

beforeEach(() => {
  resetSent();
  server.use(
    http.get('*/dashboard/api/session', () => ok(SESSION)),
    http.get('*/v1/products', () => page([product()], { total: 1 })),
  );
});

describe('the app shell', () => {
  it('puts the mode in the address: an address without one gains the last mode used', async () => {
    const { router } = renderApp('/products');
    await waitFor(() => expect(router.state.location.pathname).toBe('/test/products'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Products' })).toBeInTheDocument();
  });

  it('marks test mode on every page and names the mode in every /v1 request', async () => {
    renderApp('/test/products');
    expect(await screen.findByRole('note')).toHaveTextContent('Test mode');
    await screen.findByRole('link', { name: 'Field Guide' });
    expect(sentTo('GET', '/v1/products').every((request) => request.headers.get('Eh-Mode') === 'test')).toBe(true);
    const modes = screen.getByRole('navigation', { name: 'Mode' });
    expect(within(modes).getByRole('link', { name: 'Test' })).toHaveAttribute('aria-current', 'true');
    expect(within(modes).getByRole('link', { name: 'Live' })).toHaveAttribute('href', '/live/products');
  });

  it('has no test band in live mode, and shows the merchant’s name', async () => {
    renderApp('/live/products');
    await screen.findByRole('link', { name: 'Field Guide' });
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
    expect(screen.getByText('Ada Books')).toBeInTheDocument();
    expect(sentTo('GET', '/v1/products').every((request) => request.headers.get('Eh-Mode') === 'live')).toBe(true);
  });

  it('keeps the section when switching modes, never a record of the other mode', () => {
    expect(samePageIn('live', '/test/products/prod_01aaaaaaaaaaaaaaaaaaaaaaaa')).toBe('/live/products');
    expect(samePageIn('test', '/live/settings/api-keys')).toBe('/test/settings/api-keys');
    expect(samePageIn('live', '/test/entitlements/new')).toBe('/live/entitlements');
    expect(samePageIn('live', '/test')).toBe('/live');
  });

  it('signs out: every cached answer is dropped and sign-in shows in place', async () => {
    server.use(http.post('*/dashboard/api/sign-out', () => ok({ signed_out: true })));
    const { queryClient, user } = renderApp('/test/products');
    await screen.findByRole('link', { name: 'Field Guide' });
    expect(queryClient.getQueryCache().findAll({ queryKey: ['test', 'products'] }).length).toBeGreaterThan(0);
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('heading', { name: 'Sign in to your dashboard' })).toBeInTheDocument();
    expect(screen.queryByText('Field Guide')).not.toBeInTheDocument();
    expect(queryClient.getQueryCache().findAll().map((query) => query.queryKey)).toEqual([['session']]);
    expect(sent.some((request) => request.path === '/dashboard/api/sign-out' && request.headers.get('X-CSRF-Token') === SESSION.csrf_token)).toBe(true);
  });

  it('shows sign-in when a request finds the session ended, and signs in again on the same page', async () => {
    let signedIn = false;
    server.use(
      http.get('*/dashboard/api/session', () => (signedIn ? ok(SESSION) : failure(401, 'INVALID_SESSION', 'Sign in to the dashboard first'))),
      http.post('*/dashboard/api/sign-in', async () => {
        signedIn = true;
        return ok(SESSION);
      }),
    );
    const { user, router } = renderApp('/live/products');
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'a long enough password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('link', { name: 'Field Guide' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/live/products');
  });

  it('shows sign-in, not the API-key error, in a tab left open after signing out in another', async () => {
    // The session was read when the tab opened; the other tab's sign-out cleared the cookie since,
    // so /v1 sees a request with no credential at all.
    server.use(http.get('*/v1/products', () => failure(401, 'INVALID_API_KEY', 'No API key: send it as Authorization: Bearer <API_KEY>')));
    renderApp('/test/products');
    expect(await screen.findByRole('heading', { name: 'Sign in to your dashboard' })).toBeInTheDocument();
    expect(screen.queryByText(/No API key/)).not.toBeInTheDocument();
  });
});
