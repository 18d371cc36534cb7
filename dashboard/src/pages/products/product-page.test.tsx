import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { http, ok, page, product, resetSent, sentTo, server } from '../../../test/api-mock';
import { renderAt } from '../../../test/render';
import { ProductPage } from './product-page';

const APP = product({ id: 'prod_01appaaaaaaaaaaaaaaaaaaaaa', name: 'Desktop app', license: { activation_limit: 3, activation_ttl_seconds: 3600 } });

beforeEach(() => {
  resetSent();
  server.use(
    http.get('*/v1/products/:id', () => ok(APP)),
    http.get('*/v1/products/:id/files', () => page([])),
    http.get('*/v1/files', () => page([])),
    http.get('*/v1/entitlements', () => page([])),
  );
});

describe('a product’s page', () => {
  it('says what its grants’ license keys allow, and an edit keeps it or turns it off', async () => {
    server.use(http.patch('*/v1/products/:id', () => ok({ ...APP, license: null })));
    const { user } = renderAt(`/test/products/${APP.id}`, <ProductPage />, { path: '/:mode/products/:productId' });
    expect(await screen.findByText('A key with each grant: 3 devices per key, released after 3,600 s without a heartbeat')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    expect(screen.getByRole('checkbox', { name: 'Issue a license key with each grant' })).toBeChecked();
    expect(screen.getByLabelText(/Devices per key/)).toHaveValue('3');
    expect(screen.getByLabelText(/Release a device after/)).toHaveValue('3600');
    await user.click(screen.getByRole('checkbox', { name: 'Issue a license key with each grant' }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(sentTo('PATCH', `/v1/products/${APP.id}`)).toHaveLength(1));
    expect(sentTo('PATCH', `/v1/products/${APP.id}`)[0].body).toMatchObject({ license: null });
  });
});
