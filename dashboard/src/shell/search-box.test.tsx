import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { failure, http, ok, resetSent, SESSION, sentTo, server } from '../../test/api-mock';
import { renderAt } from '../../test/render';
import { SearchBox } from './search-box';

const customer = { object: 'customer', id: 'cus_01aaaaaaaaaaaaaaaaaaaaaaaa', label: 'buyer_1001', store_id: 'buyer_1001', created_at: '2026-11-26T12:00:00.000Z' };
const order = { object: 'order', id: 'ord_01aaaaaaaaaaaaaaaaaaaaaaaa', label: 'buyer_order_7', store_id: 'buyer_order_7', created_at: '2026-11-26T12:00:00.000Z' };
const event = { object: 'event', id: 'evt_01aaaaaaaaaaaaaaaaaaaaaaaa', label: 'entitlement.created', store_id: null, created_at: '2026-11-26T12:00:00.000Z' };

beforeEach(() => resetSent());

describe('the header search', () => {
  it('opens the one record found, in the page’s mode', async () => {
    server.use(http.get('*/v1/search', () => ok([customer])));
    const { user, router } = renderAt('/live/products', <SearchBox />);
    await user.type(screen.getByRole('searchbox', { name: 'Search by id or store id' }), 'buyer_10{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe(`/live/customers/${customer.id}`));
    const [request] = sentTo('GET', '/v1/search');
    expect(request.query.get('q')).toBe('buyer_10');
    expect(request.headers.get('Eh-Mode')).toBe('live');
  });

  it('opens the record whose id was pasted even when store ids also match', async () => {
    server.use(http.get('*/v1/search', () => ok([event, customer])));
    const { user, router } = renderAt('/test', <SearchBox />);
    await user.type(screen.getByRole('searchbox'), `${event.id}{Enter}`);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/test/events/${event.id}`));
  });

  it('lists several records as links to each one, and says when nothing matches', async () => {
    server.use(http.get('*/v1/search', ({ request }) => ok(new URL(request.url).searchParams.get('q') === 'buyer' ? [customer, order] : [])));
    const { user, router } = renderAt('/test', <SearchBox />);
    await user.type(screen.getByRole('searchbox'), 'buyer{Enter}');
    const results = await screen.findByRole('region', { name: 'Search results' });
    expect(within(results).getByRole('link', { name: /Customer buyer_1001/ })).toHaveAttribute('href', `/test/customers/${customer.id}`);
    expect(within(results).getByRole('link', { name: /Order buyer_order_7/ })).toHaveAttribute('href', `/test/orders/${order.id}`);
    await user.click(within(results).getByRole('link', { name: /Order/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/test/orders/${order.id}`));
    expect(screen.queryByRole('region', { name: 'Search results' })).not.toBeInTheDocument();

    await user.clear(screen.getByRole('searchbox'));
    await user.type(screen.getByRole('searchbox'), 'zzz{Enter}');
    expect(await screen.findByRole('status')).toHaveTextContent('Nothing found for “zzz”.');
  });

  it('shows a refusal instead of failing silently', async () => {
    server.use(http.get('*/v1/search', () => failure(400, 'INVALID_PARAMETER', 'q must be at most 255 characters')));
    const { user } = renderAt('/test', <SearchBox />);
    await user.type(screen.getByRole('searchbox'), 'x{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Use at most 255 characters.');
  });

  it('is not shown to a member who may not read customers in this mode', () => {
    renderAt('/live', <SearchBox />, { session: { ...SESSION, test_only: true } });
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
  });
});
