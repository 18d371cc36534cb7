import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { http, ok, page, resetSent, sentTo, server } from '../../../test/api-mock';
import { renderAt } from '../../../test/render';
import { ImportsPage } from './imports-page';

const CSV = 'store_customer_id,store_product_id\ncust_1,sku_ebook\ncust_2,sku_missing\n';
const DONE = {
  id: 'imp_01aaaaaaaaaaaaaaaaaaaaaaaa',
  status: 'completed',
  total_rows: 2,
  processed_rows: 2,
  granted: 1,
  skipped: 0,
  failed: 1,
  errors: [{ row: 2, code: 'PRODUCT_NOT_FOUND', message: "No product with store_product_id 'sku_missing'" }],
  created_at: '2026-11-26T10:00:00.000Z',
  completed_at: '2026-11-26T10:00:01.000Z',
};

beforeEach(() => {
  resetSent();
  server.use(
    http.get('*/v1/entitlement-imports', () => page([])),
    http.get('*/v1/entitlement-imports/:id', () => ok(DONE)),
  );
});

describe('the import form', () => {
  it('sends the CSV file as text/csv and shows the import’s outcome with its failed rows', async () => {
    server.use(http.post('*/v1/entitlement-imports', () => ok({ ...DONE, status: 'queued', processed_rows: 0, granted: 0, failed: 0, errors: [] }, 202)));
    const { user } = renderAt('/test/imports', <ImportsPage />);
    await user.upload(screen.getByLabelText('CSV file'), new File([CSV], 'grants.csv', { type: 'text/csv' }));
    await user.click(screen.getByRole('button', { name: 'Start the import' }));
    await waitFor(() => expect(sentTo('POST', '/v1/entitlement-imports')).toHaveLength(1));
    const [request] = sentTo('POST', '/v1/entitlement-imports');
    expect(request.body).toBe(CSV);
    expect(request.headers.get('Content-Type')).toBe('text/csv');
    expect(request.headers.get('Idempotency-Key')).toBeTruthy();
    expect(request.headers.get('Eh-Mode')).toBe('test');
    expect(await screen.findByText(/2 of 2 rows: 1 granted, 0 skipped, 1 failed\./)).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Rows that failed' })).getByText("No product with store_product_id 'sku_missing'")).toBeInTheDocument();
  });

  it('asks for a file first', async () => {
    const { user } = renderAt('/test/imports', <ImportsPage />);
    await user.click(screen.getByRole('button', { name: 'Start the import' }));
    expect(screen.getByLabelText('CSV file')).toHaveAccessibleDescription(/Choose a CSV file\./);
    expect(sentTo('POST', '/v1/entitlement-imports')).toHaveLength(0);
  });
});
