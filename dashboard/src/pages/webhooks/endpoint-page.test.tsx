import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { http, ok, page, resetSent, sentTo, server, sessionAs } from '../../../test/api-mock';
import { renderAt } from '../../../test/render';
import { EndpointPage } from './endpoint-page';

const ENDPOINT = {
  id: 'we_01aaaaaaaaaaaaaaaaaaaaaaaa',
  url: 'https://hooks.example.com/in',
  enabled_events: ['*'],
  description: null,
  disabled: false,
  disabled_reason: null,
  livemode: false,
  previous_secret_expires_at: null,
  created_at: '2026-11-26T10:00:00.000Z',
  updated_at: '2026-11-26T10:00:00.000Z',
};

beforeEach(() => {
  resetSent();
  server.use(
    http.get('*/v1/webhook-endpoints/:id', () => ok(ENDPOINT)),
    http.get('*/v1/webhook-endpoints/:id/deliveries', () => page([])),
    http.patch('*/v1/webhook-endpoints/:id', () => ok({ ...ENDPOINT, disabled: true, disabled_reason: 'manual' })),
  );
});

const at = `/test/webhooks/${ENDPOINT.id}`;

describe('a webhook endpoint page', () => {
  it('asks before disabling the endpoint, and disables it only when confirmed', async () => {
    const { user } = renderAt(at, <EndpointPage />, { path: '/:mode/webhooks/:endpointId' });
    await user.click(await screen.findByRole('button', { name: 'Disable' }));
    const dialog = screen.getByRole('dialog', { name: `Disable ${ENDPOINT.url}?` });
    expect(sentTo('PATCH', `/v1/webhook-endpoints/${ENDPOINT.id}`)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(sentTo('PATCH', `/v1/webhook-endpoints/${ENDPOINT.id}`)).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Disable' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Disable endpoint' }));
    await waitFor(() => expect(sentTo('PATCH', `/v1/webhook-endpoints/${ENDPOINT.id}`)).toHaveLength(1));
    expect(sentTo('PATCH', `/v1/webhook-endpoints/${ENDPOINT.id}`)[0].body).toEqual({ disabled: true });
  });

  it('offers no change to a role without webhooks:manage', async () => {
    renderAt(at, <EndpointPage />, { path: '/:mode/webhooks/:endpointId', session: sessionAs('support', ['webhooks:read', 'events:read', 'events:redeliver']) });
    expect(await screen.findByText(ENDPOINT.url)).toBeInTheDocument();
    for (const name of ['Disable', 'Edit', 'Delete', 'Rotate secret', 'Send test event']) expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
  });
});
