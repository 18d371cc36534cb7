export type ApiMode = 'live' | 'test';
export const API_MODES: readonly ApiMode[] = ['live', 'test'];

/** Who a request acts for: every repository method takes it, so no query runs without it. */
export interface Tenant {
  merchantId: string;
  mode: ApiMode;
}
