import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { failure, http, HttpResponse, resetSent, sentTo, server } from '../../test/api-mock';
import { renderAt } from '../../test/render';
import { ExportCsvButton } from './export-csv-button';

describe('Export CSV', () => {
  const saved: Array<{ name: string; text: Promise<string> }> = [];
  beforeEach(() => {
    resetSent();
    saved.length = 0;
    // jsdom has no object URLs nor downloads: the blob a click would save is read instead.
    URL.createObjectURL = vi.fn((blob: Blob) => {
      saved.push({ name: '', text: blob.text() });
      return 'blob:export';
    });
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved[saved.length - 1].name = this.download;
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it('asks the list for every page as CSV with its filters and the page’s mode, and saves the file', async () => {
    server.use(http.get('*/v1/customers', () => new HttpResponse('id,store_customer_id\r\ncus_1,a\r\n', { headers: { 'Content-Type': 'text/csv; charset=utf-8' } })));
    const { user } = renderAt('/live/customers', <ExportCsvButton path="/v1/customers" query={{ search: 'buyer_', created_after: undefined }} fileName="customers.csv" />);
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0].name).toBe('customers.csv');
    expect(await saved[0].text).toBe('id,store_customer_id\r\ncus_1,a\r\n');
    const [request] = sentTo('GET', '/v1/customers');
    expect(request.headers.get('Accept')).toBe('text/csv');
    expect(request.headers.get('Eh-Mode')).toBe('live');
    expect([...request.query.entries()]).toEqual([['search', 'buyer_']]);
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeEnabled();
  });

  it('says why an export was refused', async () => {
    server.use(http.get('*/v1/entitlements', () => failure(400, 'FILTER_REQUIRED', 'Pass at least one filter')));
    const { user } = renderAt('/test/entitlements', <ExportCsvButton path="/v1/entitlements" query={{}} fileName="entitlements.csv" />);
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Pass at least one filter');
    expect(saved).toHaveLength(0);
  });
});
