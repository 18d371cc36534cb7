import { screen, waitFor, within } from '@testing-library/react';
import * as path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { http, ok, resetSent, sentTo, server } from '../../../test/api-mock';
import { renderAt } from '../../../test/render';
import { ACTION_FROM, allowedActions, EntitlementActions } from './entitlement-actions';

const ENTITLEMENT = {
  id: 'ent_01aaaaaaaaaaaaaaaaaaaaaaaa',
  customer_id: 'cus_01aaaaaaaaaaaaaaaaaaaaaaaa',
  store_customer_id: 'cust_1',
  product_id: 'prod_01aaaaaaaaaaaaaaaaaaaaaaaa',
  status: 'active' as const,
  granted_at: '2026-11-01T00:00:00.000Z',
  expires_at: null,
  revoked_at: null,
  revocation_reason: null,
  usage_count: 0,
  usage_limit: null,
  source: 'manual' as const,
  store_order_id: null,
  metadata: {},
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
  store_line_item_id: null,
  parent_entitlement_id: null,
  suspended_at: null,
  suspension_reason: null,
};

beforeEach(resetSent);

describe('entitlement actions', () => {
  it('agree with the service’s transition table', async () => {
    // The service's table, loaded at test time (it can't be bundled with the app: it sits among server types).
    const serverTable = path.resolve(__dirname, '../../../../src/entitlements/entitlement-state-machine.ts');
    const { ENTITLEMENT_TRANSITIONS } = (await import(/* @vite-ignore */ serverTable)) as { ENTITLEMENT_TRANSITIONS: Record<string, Record<string, string>> };
    for (const [action, from] of Object.entries(ACTION_FROM)) expect([...from].sort()).toEqual(Object.keys(ENTITLEMENT_TRANSITIONS[action]).sort());
  });

  it('offer nothing on a revoked entitlement, and only what each status allows', () => {
    expect(allowedActions('revoked')).toEqual([]);
    expect(allowedActions('active')).toEqual(['suspend', 'revoke']);
    expect(allowedActions('pending')).toEqual(['activate', 'revoke']);
  });

  it('revoke with a reason after confirming', async () => {
    server.use(http.post('*/v1/entitlements/:id/revoke', () => ok({ ...ENTITLEMENT, status: 'revoked' })));
    const { user } = renderAt('/test/entitlements/x', <EntitlementActions entitlement={ENTITLEMENT} label="Ebook for cust_1" />);
    expect(screen.queryByRole('button', { name: 'Reactivate' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Revoke' }));
    const dialog = screen.getByRole('dialog', { name: 'Revoke Ebook for cust_1?' });
    await user.type(within(dialog).getByLabelText(/Reason/), 'chargeback');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke access' }));
    await waitFor(() => expect(sentTo('POST', `/v1/entitlements/${ENTITLEMENT.id}/revoke`)).toHaveLength(1));
    expect(sentTo('POST', `/v1/entitlements/${ENTITLEMENT.id}/revoke`)[0].body).toEqual({ reason: 'chargeback' });
  });

  it('reactivate an expired entitlement with a new end', async () => {
    server.use(http.post('*/v1/entitlements/:id/reactivate', () => ok({ ...ENTITLEMENT, status: 'active' })));
    const { user } = renderAt('/test/entitlements/x', <EntitlementActions entitlement={{ ...ENTITLEMENT, status: 'expired' }} label="Ebook for cust_1" />);
    await user.click(screen.getByRole('button', { name: 'Reactivate' }));
    expect(screen.getByRole('form', { name: 'Reactivate' })).toHaveTextContent('Give a new end or a new usage limit.');
    await user.type(screen.getByLabelText(/New end/), '2099-06-30T00:00');
    await user.click(screen.getByRole('button', { name: 'Reactivate' }));
    await waitFor(() => expect(sentTo('POST', `/v1/entitlements/${ENTITLEMENT.id}/reactivate`)).toHaveLength(1));
    expect(sentTo('POST', `/v1/entitlements/${ENTITLEMENT.id}/reactivate`)[0].body).toEqual({ expires_at: new Date('2099-06-30T00:00').toISOString() });
  });
});
