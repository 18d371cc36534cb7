import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { http, ok, page, resetSent, server } from '../../../test/api-mock';
import { renderAt } from '../../../test/render';
import { recordPath } from '../../lib/record-path';
import { EventPage } from './event-page';
import { EventsPage } from './events-page';

const entitlementId = 'ent_01aaaaaaaaaaaaaaaaaaaaaaaa';
const customerId = 'cus_01bbbbbbbbbbbbbbbbbbbbbbbb';
const productId = 'prod_01cccccccccccccccccccccccc';
const endpointId = 'we_01dddddddddddddddddddddddd';
const event = {
  id: 'evt_01eeeeeeeeeeeeeeeeeeeeeeee',
  type: 'entitlement.created',
  created_at: '2026-11-26T12:00:00.000Z',
  livemode: false,
  data: { object: { id: entitlementId, customer_id: customerId, product_id: productId, store_customer_id: 'buyer_1' } },
};
const attempt = {
  id: 'wd_01ffffffffffffffffffffffff',
  endpoint_id: endpointId,
  event_id: event.id,
  event_type: event.type,
  attempt: 1,
  succeeded: false,
  status_code: 500,
  error: null,
  duration_ms: 12,
  response_body: null,
  attempted_at: '2026-11-26T12:00:01.000Z',
  next_attempt_at: null,
};

beforeEach(() => {
  resetSent();
  server.use(
    http.get('*/v1/events', () => page([event])),
    http.get('*/v1/events/:eventId', () => ok(event)),
    http.get('*/v1/events/:eventId/deliveries', () => page([attempt])),
    http.get('*/v1/webhook-endpoints', () => page([{ id: endpointId, url: 'https://hooks.example.com/in' }])),
  );
});

describe('every id is a link to its record', () => {
  it('maps each id prefix to its page, and files and imports to their lists', () => {
    expect(recordPath(customerId)).toBe(`customers/${customerId}`);
    expect(recordPath(event.id)).toBe(`events/${event.id}`);
    expect(recordPath(endpointId)).toBe(`webhooks/${endpointId}`);
    expect(recordPath('file_01aaaaaaaaaaaaaaaaaaaaaaaa')).toBe('files');
    expect(recordPath('key_01aaaaaaaaaaaaaaaaaaaaaaaa')).toBeNull();
    expect(recordPath('buyer_1')).toBeNull();
  });

  it("links the events list's About column to the record", async () => {
    renderAt('/test/events', <EventsPage />);
    const table = await screen.findByRole('table', { name: 'Events' });
    expect(within(table).getByRole('link', { name: entitlementId })).toHaveAttribute('href', `/test/entitlements/${entitlementId}`);
  });

  it("links an event's About, every id in its payload, and names each delivery's endpoint by its URL", async () => {
    renderAt(`/live/events/${event.id}`, <EventPage />, { path: '/:mode/events/:eventId' });
    const payload = await screen.findByLabelText('Payload');
    expect(within(payload).getByRole('link', { name: entitlementId })).toHaveAttribute('href', `/live/entitlements/${entitlementId}`);
    expect(within(payload).getByRole('link', { name: customerId })).toHaveAttribute('href', `/live/customers/${customerId}`);
    expect(within(payload).getByRole('link', { name: productId })).toHaveAttribute('href', `/live/products/${productId}`);
    expect(within(payload).queryByRole('link', { name: 'buyer_1' })).not.toBeInTheDocument();
    expect(payload).toHaveTextContent(`"store_customer_id": "buyer_1"`);
    const about = screen.getAllByRole('link', { name: entitlementId });
    expect(about.length).toBeGreaterThanOrEqual(2);
    const deliveries = await screen.findByRole('table', { name: `Deliveries of ${event.id}` });
    expect(await within(deliveries).findByRole('link', { name: 'https://hooks.example.com/in' })).toHaveAttribute('href', `/live/webhooks/${endpointId}`);
  });
});
