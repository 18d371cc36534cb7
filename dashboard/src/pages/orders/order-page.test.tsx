import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { http, ok, resetSent, sentTo, server } from '../../../test/api-mock';
import { renderAt } from '../../../test/render';
import { OrderPage } from './order-page';

const ORDER = {
  id: 'ord_01aaaaaaaaaaaaaaaaaaaaaaaa',
  store_order_id: 'order_1001',
  customer_id: 'cus_01aaaaaaaaaaaaaaaaaaaaaaaa',
  store_customer_id: 'cust_8841',
  status: 'active',
  line_items: [
    { store_line_item_id: 'li_1', product_id: 'prod_01aaaaaaaaaaaaaaaaaaaaaaaa', product_name: 'Ebook', quantity: 1, status: 'granted', skipped_reason: null, entitlement_id: 'ent_01aaaaaaaaaaaaaaaaaaaaaaaa' },
    { store_line_item_id: 'li_2', product_id: 'prod_01bbbbbbbbbbbbbbbbbbbbbbbb', product_name: 'Audiobook', quantity: 2, status: 'granted', skipped_reason: null, entitlement_id: 'ent_01bbbbbbbbbbbbbbbbbbbbbbbb' },
    { store_line_item_id: 'li_3', product_id: null, product_name: null, quantity: 1, status: 'unmatched', skipped_reason: null, entitlement_id: null },
  ],
  placed_at: '2026-11-20T09:15:00.000Z',
  metadata: {},
  created_at: '2026-11-20T09:15:01.000Z',
  updated_at: '2026-11-20T09:15:01.000Z',
};

beforeEach(() => {
  resetSent();
  server.use(http.get('*/v1/orders/:id', () => ok(ORDER)));
});

describe('an order’s page', () => {
  it('refunds one line item, with a reason, after confirming', async () => {
    server.use(http.post('*/v1/orders/:id/refund', () => ok({ ...ORDER, status: 'partially_refunded' })));
    const { user } = renderAt(`/test/orders/${ORDER.id}`, <OrderPage />, { path: '/:mode/orders/:orderId' });
    const rows = await screen.findAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual(expect.arrayContaining([expect.stringContaining('Audiobook')]));
    // Only granted line items can be refunded.
    expect(screen.queryByRole('button', { name: 'Refund line item li_3' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Refund line item li_2' }));
    const dialog = screen.getByRole('dialog', { name: 'Refund line item li_2?' });
    expect(dialog).toHaveTextContent('Its entitlement to Audiobook is revoked now.');
    await user.type(within(dialog).getByLabelText(/Reason/), 'customer asked');
    await user.click(within(dialog).getByRole('button', { name: 'Refund line item' }));
    await waitFor(() => expect(sentTo('POST', `/v1/orders/${ORDER.id}/refund`)).toHaveLength(1));
    const [refund] = sentTo('POST', `/v1/orders/${ORDER.id}/refund`);
    expect(refund.body).toEqual({ store_line_item_ids: ['li_2'], reason: 'customer asked' });
    expect(refund.headers.get('X-CSRF-Token')).not.toBeNull();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('refunds the whole order from its header', async () => {
    server.use(http.post('*/v1/orders/:id/refund', () => ok({ ...ORDER, status: 'refunded' })));
    const { user } = renderAt(`/live/orders/${ORDER.id}`, <OrderPage />, { path: '/:mode/orders/:orderId' });
    await user.click(await screen.findByRole('button', { name: 'Refund the order' }));
    expect(screen.getByRole('dialog')).toHaveTextContent('The 2 entitlements this order granted are revoked now.');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Refund everything' }));
    await waitFor(() => expect(sentTo('POST', `/v1/orders/${ORDER.id}/refund`)).toHaveLength(1));
    expect(sentTo('POST', `/v1/orders/${ORDER.id}/refund`)[0].body).toEqual({});
    expect(sentTo('POST', `/v1/orders/${ORDER.id}/refund`)[0].headers.get('Eh-Mode')).toBe('live');
  });
});
