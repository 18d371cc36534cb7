import type { Mode } from '../../api/client';

/*
 * The one onboarding step the API keeps no trace of: an access check asked from the dashboard.
 * Remembered in this browser per merchant and mode.
 */
const key = (merchantId: string, mode: Mode) => `dashboard.checked.${merchantId}.${mode}`;

export function markChecked(merchantId: string, mode: Mode): void {
  try {
    window.localStorage.setItem(key(merchantId, mode), new Date().toISOString());
  } catch {
    // Storage refused (a private window): the step stays unticked.
  }
}

export function wasChecked(merchantId: string, mode: Mode): boolean {
  try {
    return window.localStorage.getItem(key(merchantId, mode)) !== null;
  } catch {
    return false;
  }
}
