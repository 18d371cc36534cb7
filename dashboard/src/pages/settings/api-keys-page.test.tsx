import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { http, ok, resetSent, sentTo, server } from '../../../test/api-mock';
import { renderAt } from '../../../test/render';
import { ApiKeysPage } from './api-keys-page';

const KEY = { id: 'key_01aaaaaaaaaaaaaaaaaaaaaaaa', prefix: 'eh_live_4fGh', mode: 'live', scopes: ['products:read'], name: 'checkout', created_at: '2026-11-20T10:00:00.000Z', last_used_at: null, revoked_at: null };

beforeEach(() => {
  resetSent();
  server.use(http.get('*/dashboard/api/api-keys', () => ok([KEY])));
});

describe('the API key form', () => {
  it('creates a key with its scopes and the page’s mode, once, and shows it once', async () => {
    let created = 0;
    server.use(
      http.post('*/dashboard/api/api-keys', async () => {
        created += 1;
        await new Promise((resolve) => setTimeout(resolve, 50));
        return ok({ ...KEY, id: 'key_02', name: 'backend', key: 'eh_live_secret_value' }, 201);
      }),
    );
    const { user } = renderAt('/live/settings/api-keys', <ApiKeysPage />);
    await user.type(screen.getByLabelText(/Name/), 'backend');
    expect(screen.getByRole('radio', { name: /Live/ })).toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: /entitlements:read/ }));
    await user.click(screen.getByRole('checkbox', { name: /products:read/ }));
    await user.dblClick(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByTestId('new-key')).toHaveTextContent('eh_live_secret_value');
    expect(created).toBe(1);
    const [request] = sentTo('POST', '/dashboard/api/api-keys');
    expect(request.body).toEqual({ mode: 'live', scopes: ['entitlements:read', 'products:read'], name: 'backend' });
    expect(request.headers.get('Idempotency-Key')).toBeTruthy();
  });

  it('asks for a scope in plain words', async () => {
    const { user } = renderAt('/test/settings/api-keys', <ApiKeysPage />);
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect(screen.getByRole('group', { name: 'Scopes' })).toHaveAccessibleDescription('Choose at least one scope, or every scope.');
    expect(sentTo('POST', '/dashboard/api/api-keys')).toHaveLength(0);
  });

  it('revokes a key only once the dialog is confirmed', async () => {
    server.use(http.delete('*/dashboard/api/api-keys/:id', () => ok({ ...KEY, revoked_at: '2026-11-26T10:00:00.000Z' })));
    const { user } = renderAt('/test/settings/api-keys', <ApiKeysPage />);
    await user.click(await screen.findByRole('button', { name: 'Revoke key eh_live_4fGh' }));
    const dialog = screen.getByRole('dialog', { name: 'Revoke checkout?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(sentTo('DELETE', `/dashboard/api/api-keys/${KEY.id}`)).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Revoke key eh_live_4fGh' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Revoke key' }));
    await waitFor(() => expect(sentTo('DELETE', `/dashboard/api/api-keys/${KEY.id}`)).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
