import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { failure, http, ok, resetSent, sentTo, server } from '../../../test/api-mock';
import { renderAt } from '../../../test/render';
import { NewEndpointPage } from './new-endpoint-page';

const CREATED = {
  id: 'we_01aaaaaaaaaaaaaaaaaaaaaaaa',
  url: 'https://hooks.example.com/in',
  enabled_events: ['entitlement.created', 'order.refunded'],
  description: 'Fulfilment',
  disabled: false,
  disabled_reason: null,
  livemode: true,
  previous_secret_expires_at: null,
  created_at: '2026-11-26T10:00:00.000Z',
  updated_at: '2026-11-26T10:00:00.000Z',
  secret: 'whsec_shown_once',
};

beforeEach(resetSent);

describe('the new webhook endpoint form', () => {
  it('adds an endpoint for chosen event types and shows its secret once', async () => {
    server.use(http.post('*/v1/webhook-endpoints', () => ok(CREATED, 201)));
    const { user } = renderAt('/live/webhooks/new', <NewEndpointPage />);
    await user.type(screen.getByLabelText('Endpoint URL'), 'https://hooks.example.com/in');
    await user.type(screen.getByLabelText(/Description/), 'Fulfilment');
    await user.click(screen.getByRole('checkbox', { name: /Every event/ }));
    await user.click(screen.getByRole('checkbox', { name: 'entitlement.created' }));
    await user.click(screen.getByRole('checkbox', { name: 'order.refunded' }));
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect(await screen.findByTestId('new-secret')).toHaveTextContent('whsec_shown_once');
    const [request] = sentTo('POST', '/v1/webhook-endpoints');
    expect(request.body).toEqual({ url: 'https://hooks.example.com/in', enabled_events: ['entitlement.created', 'order.refunded'], description: 'Fulfilment' });
    expect(request.headers.get('Eh-Mode')).toBe('live');
    expect(request.headers.get('Idempotency-Key')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Done: open the endpoint' })).toHaveAttribute('href', `/live/webhooks/${CREATED.id}`);
  });

  it('wants https in live mode and at least one event', async () => {
    const { user } = renderAt('/live/webhooks/new', <NewEndpointPage />);
    await user.type(screen.getByLabelText('Endpoint URL'), 'http://hooks.example.com/in');
    await user.click(screen.getByRole('checkbox', { name: /Every event/ }));
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect(screen.getByLabelText('Endpoint URL')).toHaveAccessibleDescription(/Enter a full https:\/\/ address \(live mode sends to https only\)\./);
    expect(screen.getByRole('group', { name: 'Events to send' })).toHaveAccessibleDescription('Choose at least one event, or every event.');
    expect(sentTo('POST', '/v1/webhook-endpoints')).toHaveLength(0);
  });

  it('shows the API’s refusal beside the URL, keeping the input', async () => {
    server.use(http.post('*/v1/webhook-endpoints', () => failure(400, 'INVALID_PARAMETER', "Invalid 'url': the host resolves to a private address", 'url')));
    const { user } = renderAt('/test/webhooks/new', <NewEndpointPage />);
    await user.type(screen.getByLabelText('Endpoint URL'), 'http://10.0.0.5/hook');
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    await waitFor(() => expect(screen.getByLabelText('Endpoint URL')).toHaveAccessibleDescription(/The host resolves to a private address/));
    expect(screen.getByLabelText('Endpoint URL')).toHaveValue('http://10.0.0.5/hook');
  });
});
