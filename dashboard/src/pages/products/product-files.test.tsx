import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Schemas } from '../../api/client';
import { failure, http, page, product, resetSent, sent, server } from '../../../test/api-mock';
import { renderAt } from '../../../test/render';
import { ProductFiles } from './product-files';

const fileNumbered = (index: number) => ({
  id: `file_${String(index).padStart(26, '0')}`,
  file_name: `chapter-${index}.pdf`,
  file_size: 1024,
  mime_type: 'application/pdf',
  upload_status: 'CONFIRMED',
  download_count: 0,
  product_id: 'prod_01aaaaaaaaaaaaaaaaaaaaaaaa',
  created_at: '2026-11-20T10:00:00.000Z',
});

const FILE_IDS = Array.from({ length: 130 }, (_, index) => fileNumbered(index).id);
const PRODUCT: Schemas['ProductResponseDto'] = {
  ...product(),
  entitlement_type: 'permanent',
  status: 'active',
  fulfillment_config: { delivery_method: 'FILE', file_ids: FILE_IDS, access_url: null, access_instructions: null },
};

beforeEach(resetSent);

describe('a product’s files', () => {
  it('pages through the product’s files by cursor instead of one request per file', async () => {
    server.use(
      http.get('*/v1/files', ({ request }) => {
        const cursor = new URL(request.url).searchParams.get('cursor');
        if (!cursor) return page(Array.from({ length: 100 }, (_, index) => fileNumbered(index)), { has_more: true, next_cursor: 'page-2', total: 130 });
        return page(Array.from({ length: 30 }, (_, index) => fileNumbered(100 + index)), { has_more: false, total: 130 });
      }),
    );
    const { user } = renderAt('/test/products/x', <ProductFiles product={PRODUCT} />);
    expect(await screen.findByText('chapter-0.pdf')).toBeInTheDocument();
    expect(screen.getByText(/100 of 130 files shown/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show more files' }));
    expect(await screen.findByText('chapter-129.pdf')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show more files' })).not.toBeInTheDocument();
    const paths = sent.map((request) => `${request.path}${request.query.get('cursor') ? `?cursor=${request.query.get('cursor')}` : ''}`);
    expect(paths).toEqual(['/v1/files', '/v1/files?cursor=page-2']);
  });

  it('says when a page of files fails instead of dropping it', async () => {
    server.use(
      http.get('*/v1/files', ({ request }) => {
        if (!new URL(request.url).searchParams.get('cursor')) return page([fileNumbered(0)], { has_more: true, next_cursor: 'page-2', total: 2 });
        return failure(503, 'SERVICE_UNAVAILABLE', 'The database is busy; retry after 1 second');
      }),
    );
    const { user } = renderAt('/test/products/x', <ProductFiles product={PRODUCT} />);
    await user.click(await screen.findByRole('button', { name: 'Show more files' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('The database is busy'));
    expect(screen.getByText('chapter-0.pdf')).toBeInTheDocument();
  });
});
