import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { http, page, resetSent, sentTo, server } from '../../../test/api-mock';
import { renderAt } from '../../../test/render';
import { DeliveriesPage } from './deliveries-page';

const endpoints = [
  { id: 'we_01aaaaaaaaaaaaaaaaaaaaaaaa', url: 'https://a.example.com/in' },
  { id: 'we_01bbbbbbbbbbbbbbbbbbbbbbbb', url: 'https://b.example.com/in' },
];
const attempt = (endpointId: string, succeeded: boolean) => ({
  id: `wd_01${succeeded ? 'c' : 'd'}${endpointId.slice(-24)}`,
  endpoint_id: endpointId,
  event_id: 'evt_01eeeeeeeeeeeeeeeeeeeeeeee',
  event_type: 'entitlement.created',
  attempt: 1,
  succeeded,
  status_code: succeeded ? 200 : 500,
  error: null,
  duration_ms: 9,
  response_body: null,
  attempted_at: '2026-11-26T12:00:01.000Z',
  next_attempt_at: null,
});

beforeEach(() => {
  resetSent();
  server.use(
    http.get('*/v1/webhook-endpoints', () => page(endpoints)),
    http.get('*/v1/webhook-deliveries', ({ request }) => {
      const query = new URL(request.url).searchParams;
      const rows = [attempt(endpoints[0].id, true), attempt(endpoints[1].id, false)].filter(
        (row) => (!query.get('status') || (query.get('status') === 'succeeded') === row.succeeded) && (!query.get('endpoint_id') || query.get('endpoint_id') === row.endpoint_id),
      );
      return page(rows);
    }),
  );
});

describe('the deliveries page across endpoints', () => {
  it('lists attempts to every endpoint, each naming its endpoint by URL with a link', async () => {
    renderAt('/test/webhooks/deliveries', <DeliveriesPage />);
    const table = await screen.findByRole('table', { name: 'Deliveries' });
    expect(await within(table).findByRole('link', { name: 'https://a.example.com/in' })).toHaveAttribute('href', `/test/webhooks/${endpoints[0].id}`);
    expect(within(table).getByRole('link', { name: 'https://b.example.com/in' })).toHaveAttribute('href', `/test/webhooks/${endpoints[1].id}`);
  });

  it('filters to failures and to one endpoint, on the server', async () => {
    const { user } = renderAt('/test/webhooks/deliveries', <DeliveriesPage />);
    await screen.findByRole('table', { name: 'Deliveries' });
    await user.selectOptions(screen.getByLabelText('Outcome'), 'failed');
    await waitFor(() => expect(sentTo('GET', '/v1/webhook-deliveries').at(-1)?.query.get('status')).toBe('failed'));
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Deliveries' })).queryByRole('link', { name: 'https://a.example.com/in' })).not.toBeInTheDocument());
    await user.selectOptions(screen.getByLabelText('Endpoint'), 'https://a.example.com/in');
    await waitFor(() => expect(sentTo('GET', '/v1/webhook-deliveries').at(-1)?.query.get('endpoint_id')).toBe(endpoints[0].id));
    expect(sentTo('GET', '/v1/webhook-deliveries').at(-1)?.query.get('status')).toBe('failed');
    expect(await screen.findByText('No delivery matches.')).toBeInTheDocument();
  });
});
