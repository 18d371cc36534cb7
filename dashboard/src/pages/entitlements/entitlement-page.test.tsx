import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { entitlement, http, ok, page, product, resetSent, sentTo, server, sessionAs } from '../../../test/api-mock';
import { renderAt } from '../../../test/render';
import { EntitlementPage } from './entitlement-page';

const ENTITLEMENT = entitlement({});
const at = `/test/entitlements/${ENTITLEMENT.id}`;
const route = { path: '/:mode/entitlements/:entitlementId' };

beforeEach(() => {
  resetSent();
  let status = 'active';
  server.use(
    http.get('*/v1/entitlements/:id', () => ok({ ...ENTITLEMENT, status })),
    http.get('*/v1/products/:id', () => ok(product())),
    http.get('*/v1/events', () => page([])),
    http.get('*/v1/audit-log', () => page([])),
    http.post('*/v1/entitlements/:id/suspend', () => {
      status = 'suspended';
      return ok({ ...ENTITLEMENT, status });
    }),
  );
});

describe('an entitlement page', () => {
  it('clears the “Granted.” notice once another action is taken', async () => {
    const { user } = renderAt(at, <EntitlementPage />, { ...route, state: { notice: 'Granted.' } });
    expect(await screen.findByText('Granted.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Suspend' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Suspend' }));
    await waitFor(() => expect(sentTo('POST', `/v1/entitlements/${ENTITLEMENT.id}/suspend`)).toHaveLength(1));
    await waitFor(() => expect(screen.queryByText('Granted.')).not.toBeInTheDocument());
  });

  it('shows a viewer no action', async () => {
    renderAt(at, <EntitlementPage />, { ...route, session: sessionAs('viewer', ['entitlements:read', 'products:read', 'events:read']) });
    expect(await screen.findByText('Your role can’t change entitlements.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Suspend' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Revoke' })).not.toBeInTheDocument();
  });

  it('lets support suspend and revoke but not edit', async () => {
    renderAt(at, <EntitlementPage />, { ...route, session: sessionAs('support', ['entitlements:read', 'entitlements:grant', 'products:read', 'events:read', 'events:redeliver']) });
    expect(await screen.findByRole('button', { name: 'Revoke' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Suspend' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Change the end/ })).not.toBeInTheDocument();
  });

  it('shows in the history who revoked and the reason they typed', async () => {
    const at1 = '2026-12-01T10:00:00.000Z';
    server.use(
      http.get('*/v1/events', () =>
        page([{ id: 'evt_1', type: 'entitlement.revoked', created_at: at1, livemode: false, data: { object: { ...ENTITLEMENT, status: 'revoked', revocation_reason: 'refund requested' } } }]),
      ),
      http.get('*/v1/audit-log', () =>
        page([
          {
            id: 'aud_1',
            created_at: at1,
            actor: { type: 'user', id: 'user_1', label: 'support@example.com' },
            action: 'entitlements.revoke',
            object: { type: 'entitlement', id: ENTITLEMENT.id },
            mode: 'test',
            request_id: 'req_1',
            client_address: '127.0.0.1',
            status: 'succeeded',
          },
        ]),
      ),
    );
    renderAt(at, <EntitlementPage />, route);
    const item = (await screen.findByRole('link', { name: 'entitlement.revoked' })).closest('li') as HTMLElement;
    await waitFor(() => expect(item).toHaveTextContent('by support@example.com'));
    expect(item).toHaveTextContent('reason: “refund requested”');
  });

  it('shows the reason without the audit log to a role that may not read it', async () => {
    server.use(
      http.get('*/v1/events', () =>
        page([{ id: 'evt_2', type: 'entitlement.suspended', created_at: '2026-12-01T10:00:00.000Z', livemode: false, data: { object: { ...ENTITLEMENT, status: 'suspended', suspension_reason: 'chargeback' } } }]),
      ),
    );
    renderAt(at, <EntitlementPage />, { ...route, session: sessionAs('support', ['entitlements:read', 'entitlements:grant', 'products:read', 'events:read', 'events:redeliver']) });
    const item = (await screen.findByRole('link', { name: 'entitlement.suspended' })).closest('li') as HTMLElement;
    expect(item).toHaveTextContent('reason: “chargeback”');
    expect(sentTo('GET', '/v1/audit-log')).toHaveLength(0);
  });
});
