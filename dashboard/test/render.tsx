import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { Session } from '../src/api/dashboard';
import { SessionProvider } from '../src/shell/session';
import { SESSION } from './api-mock';

/**
 * Renders one page or form as the app would: under a mode route (`/test/…` or `/live/…`), with a
 * session and a fresh query cache. `path` is the route pattern the element answers; `state` the
 * history entry's state (what a navigation carried, like a notice).
 */
export function renderAt(url: string, element: ReactElement, options: { path?: string; session?: Session; state?: unknown } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: options.path ?? '/:mode/*', element: <SessionProvider session={options.session ?? SESSION}>{element}</SessionProvider> },
      { path: '*', element: <p>Elsewhere</p> },
    ],
    { initialEntries: [options.state === undefined ? url : { pathname: url, state: options.state }] },
  );
  const user = userEvent.setup();
  const view = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { user, router, queryClient, ...view };
}
