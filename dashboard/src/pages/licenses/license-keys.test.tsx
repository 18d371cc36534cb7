import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { http, ok, page, resetSent, sentTo, server } from '../../../test/api-mock';
import { renderAt } from '../../../test/render';
import { LicenseKeys } from './license-keys';

const KEY = {
  id: 'lic_01keyaaaaaaaaaaaaaaaaaaaa',
  key: 'K7Q2M-9XH4T-P3N8V-R6W1C-5J0DB',
  entitlement_id: 'ent_01entaaaaaaaaaaaaaaaaaaaa',
  customer_id: 'cus_01cusaaaaaaaaaaaaaaaaaaaa',
  product_id: 'prod_01prodaaaaaaaaaaaaaaaaaa',
  status: 'active',
  activation_limit: 3,
  activations_count: 1,
  activation_ttl_seconds: null,
  created_at: '2026-11-26T12:00:00.000Z',
};
const DEVICE = {
  id: 'act_01actaaaaaaaaaaaaaaaaaaaa',
  license_key_id: KEY.id,
  fingerprint: 'machine-4f9a2c',
  name: "Ada's MacBook",
  metadata: {},
  created_at: '2026-11-26T12:00:00.000Z',
  last_seen_at: '2026-11-26T12:30:00.000Z',
};

beforeEach(() => {
  resetSent();
  server.use(
    http.get('*/v1/license-keys', () => page([KEY])),
    http.get('*/v1/license-keys/:id/activations', () => page([DEVICE])),
  );
});

describe('license keys on an entitlement or customer page', () => {
  it('show the key, its status and its devices', async () => {
    renderAt('/test/entitlements/x', <LicenseKeys filter={{ entitlement_id: KEY.entitlement_id }} />);
    expect(await screen.findByTestId('license-key-value')).toHaveTextContent(KEY.key);
    expect(screen.getByText(/Active on 1 of 3 devices/)).toBeInTheDocument();
    expect(await screen.findByRole('rowheader', { name: "Ada's MacBook" })).toBeInTheDocument();
    expect(sentTo('GET', '/v1/license-keys')[0].query.get('entitlement_id')).toBe(KEY.entitlement_id);
  });

  it('deactivate a device after confirming', async () => {
    server.use(http.delete('*/v1/license-keys/:id/activations/:activation', () => ok({ id: DEVICE.id, deleted: true })));
    const { user } = renderAt('/test/customers/x', <LicenseKeys filter={{ customer_id: KEY.customer_id }} />);
    await user.click(await screen.findByRole('button', { name: "Deactivate Ada's MacBook" }));
    const dialog = screen.getByRole('dialog', { name: "Deactivate Ada's MacBook?" });
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(sentTo('DELETE', `/v1/license-keys/${KEY.id}/activations/${DEVICE.id}`)).toHaveLength(1));
  });

  it("set this customer's own limit, empty for unlimited", async () => {
    server.use(http.patch('*/v1/license-keys/:id', () => ok({ ...KEY, activation_limit: 5 })));
    const { user } = renderAt('/test/customers/x', <LicenseKeys filter={{ customer_id: KEY.customer_id }} />);
    const field = await screen.findByLabelText("This customer's device limit");
    await user.clear(field);
    await user.type(field, '5');
    await user.click(screen.getByRole('button', { name: 'Save limit' }));
    await waitFor(() => expect(sentTo('PATCH', `/v1/license-keys/${KEY.id}`)).toHaveLength(1));
    expect(sentTo('PATCH', `/v1/license-keys/${KEY.id}`)[0].body).toEqual({ activation_limit: 5 });
  });

  it('say so when the product issues no keys', async () => {
    server.use(http.get('*/v1/license-keys', () => page([])));
    renderAt('/test/entitlements/x', <LicenseKeys filter={{ entitlement_id: KEY.entitlement_id }} />);
    expect(await screen.findByText('No license keys: the product issues none.')).toBeInTheDocument();
  });
});
