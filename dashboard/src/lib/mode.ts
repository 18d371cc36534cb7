import { useParams } from 'react-router';
import { apiFor, isMode, type ApiClient, type Mode } from '../api/client';

/** The mode of the page, from its address (`/dashboard/test/…`, `/dashboard/live/…`). */
export function useMode(): Mode {
  const { mode } = useParams();
  // The mode route only renders its pages for a valid mode (shell/ModeGate), so this holds.
  return isMode(mode) ? mode : 'test';
}

/** The /v1 client of the page's mode: every request it sends names that mode in `Eh-Mode`. */
export function useApi(): ApiClient {
  return apiFor(useMode());
}

/** A link inside the page's mode: `to('products')` → `/test/products`. */
export function useModePath(): (path?: string) => string {
  const mode = useMode();
  return (path = '') => `/${mode}${path ? `/${path.replace(/^\/+/, '')}` : ''}`;
}

const LAST_MODE = 'dashboard.mode';

/** The mode the user last worked in, so /dashboard opens where they left off. */
export function lastMode(): Mode {
  try {
    const stored = window.localStorage.getItem(LAST_MODE);
    return isMode(stored) ? stored : 'test';
  } catch {
    return 'test';
  }
}

export function rememberMode(mode: Mode): void {
  try {
    window.localStorage.setItem(LAST_MODE, mode);
  } catch {
    // Private windows may refuse storage; the address still carries the mode.
  }
}
