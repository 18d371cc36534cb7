import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { failure, http, ok, page, product, resetSent, sentTo, server } from '../../../test/api-mock';
import { renderAt } from '../../../test/render';
import { GrantPage } from './grant-page';

const PLAN = product({ id: 'prod_01planaaaaaaaaaaaaaaaaaaaa', name: 'Pro plan', entitlement_type: 'time_limited', access_duration_days: 30 });
// The 120th product: beyond any first page, found because the server searches.
const OLD = product({ id: 'prod_01oldaaaaaaaaaaaaaaaaaaaaa', name: 'Old course (product 120)' });
const ENTITLEMENT = { id: 'ent_01aaaaaaaaaaaaaaaaaaaaaaaa' };

beforeEach(() => {
  resetSent();
  server.use(
    http.get('*/v1/products', ({ request }) => {
      const search = new URL(request.url).searchParams.get('search');
      return page(search ? [PLAN, OLD].filter((candidate) => candidate.name.toLowerCase().includes(search.toLowerCase())) : [PLAN]);
    }),
    http.get('*/v1/products/:id', ({ params }) => ok([PLAN, OLD].find((candidate) => candidate.id === params.id) ?? PLAN)),
    http.get('*/v1/customers', () => page([{ id: 'cus_01aaaaaaaaaaaaaaaaaaaaaaaa', store_customer_id: 'cust_42', created_at: '2026-11-01T00:00:00.000Z' }])),
  );
});

describe('the grant form', () => {
  it('finds a product by searching the server and grants it with an end date, a usage limit and metadata', async () => {
    server.use(http.post('*/v1/entitlements', () => ok(ENTITLEMENT, 201)));
    const { user, router } = renderAt('/test/entitlements/new', <GrantPage />);
    await user.type(screen.getByLabelText(/Customer \(store customer id\)/), 'cust_42');
    await user.type(screen.getByRole('combobox', { name: 'Product' }), 'product 120');
    await user.click(await screen.findByRole('option', { name: /Old course/ }));
    await user.click(screen.getByRole('radio', { name: 'On a date' }));
    await user.type(screen.getByLabelText('Access ends at'), '2099-01-31T12:00');
    await user.type(screen.getByLabelText(/Usage limit/), '3');
    await user.click(screen.getByText('Order reference and metadata'));
    await user.type(screen.getByLabelText(/Metadata/), '{{"note": "gift"}');
    await user.dblClick(screen.getByRole('button', { name: 'Grant' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/test/entitlements/${ENTITLEMENT.id}`));
    // However many requests the double click sent, they are one intent: one key, one grant.
    const grants = sentTo('POST', '/v1/entitlements');
    expect(new Set(grants.map((request) => request.headers.get('Idempotency-Key'))).size).toBe(1);
    expect(grants[0].body).toEqual({
      store_customer_id: 'cust_42',
      product_id: OLD.id,
      expires_at: new Date('2099-01-31T12:00').toISOString(),
      usage_limit: 3,
      metadata: { note: 'gift' },
    });
    expect(grants[0].headers.get('Idempotency-Key')).toBeTruthy();
    expect(grants[0].headers.get('Eh-Mode')).toBe('test');
    expect(sentTo('GET', '/v1/products').some((request) => request.query.get('search') === 'product 120' && request.query.get('status') === 'active')).toBe(true);
  });

  it('starts from the product and customer named in the address, pending when asked', async () => {
    server.use(http.post('*/v1/entitlements', () => ok(ENTITLEMENT, 201)));
    const { user } = renderAt(`/live/entitlements/new?product_id=${PLAN.id}&store_customer_id=cust_7`, <GrantPage />);
    expect(await screen.findByRole('combobox', { name: 'Product' })).toHaveValue('Pro plan');
    expect(screen.getByLabelText(/Customer \(store customer id\)/)).toHaveValue('cust_7');
    await user.click(screen.getByRole('radio', { name: /pending until activated/ }));
    await user.click(screen.getByRole('radio', { name: 'Never' }));
    await user.click(screen.getByRole('button', { name: 'Grant' }));
    await waitFor(() => expect(sentTo('POST', '/v1/entitlements')).toHaveLength(1));
    expect(sentTo('POST', '/v1/entitlements')[0].body).toEqual({ store_customer_id: 'cust_7', product_id: PLAN.id, expires_at: null, status: 'pending' });
    expect(sentTo('POST', '/v1/entitlements')[0].headers.get('Eh-Mode')).toBe('live');
  });

  it('asks for a customer and a product before sending, and shows the API’s refusal beside the product', async () => {
    const { user } = renderAt('/test/entitlements/new', <GrantPage />);
    await user.click(screen.getByRole('button', { name: 'Grant' }));
    expect(screen.getByLabelText(/Customer \(store customer id\)/)).toHaveAccessibleDescription(/Enter the customer’s id in your store\./);
    expect(screen.getByRole('combobox', { name: 'Product' })).toHaveAccessibleDescription('Choose a product.');
    expect(sentTo('POST', '/v1/entitlements')).toHaveLength(0);

    server.use(http.post('*/v1/entitlements', () => failure(409, 'PRODUCT_ARCHIVED', "Invalid 'product_id': the product is archived: new grants are refused", 'product_id')));
    await user.type(screen.getByLabelText(/Customer \(store customer id\)/), 'cust_9');
    await user.click(screen.getByRole('combobox', { name: 'Product' }));
    await user.click(await screen.findByRole('option', { name: /Pro plan/ }));
    await user.click(screen.getByRole('button', { name: 'Grant' }));
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Product' })).toHaveAccessibleDescription('The product is archived: new grants are refused'));
    expect(screen.getByLabelText(/Customer \(store customer id\)/)).toHaveValue('cust_9');
  });
});
