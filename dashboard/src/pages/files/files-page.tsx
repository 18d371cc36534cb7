import { unwrap, unwrapPage, type Schemas } from '../../api/client';
import { formatBytes, formatCount } from '../../lib/format';
import { PAGE_SIZE, presentFilters, useListState, usePage } from '../../lib/list';
import { useApi } from '../../lib/mode';
import { useWrite } from '../../lib/write';
import { Badge } from '../../ui/badge';
import { ConfirmButton } from '../../ui/confirm';
import { FilterBar, FilterSelect } from '../../ui/filters';
import { ProductLink, useProductName } from '../../ui/names';
import { PageHeader } from '../../ui/page';
import { Pager } from '../../ui/pager';
import { Empty, ErrorMessage, Loading } from '../../ui/states';
import { Table } from '../../ui/table';
import { Time } from '../../ui/time';

type File = Schemas['FileResponseDto'];

const STATUSES = [
  { value: '', label: 'Any' },
  { value: 'CONFIRMED', label: 'Uploaded' },
  { value: 'PENDING', label: 'Upload not finished' },
];

/** Every file of the mode; unfinished uploads can be removed (their storage reservation with them). */
export function FilesPage() {
  const api = useApi();
  const list = useListState(['product_id', 'upload_status'] as const);
  const product = useProductName(list.filters.product_id || null);
  const page = usePage('files', list.filters, list.cursor, async (paging) => {
    const filters = presentFilters(list.filters);
    return unwrapPage(await api.GET('/v1/files', { params: { query: { ...paging, ...filters, upload_status: filters.upload_status as File['upload_status'] | undefined } } }));
  });
  const remove = useWrite({
    mutationFn: async (file: File) => unwrap(await api.DELETE('/v1/files/{file_id}', { params: { path: { file_id: file.id } } })),
    invalidates: [['files'], ['products']],
  });
  return (
    <>
      <PageHeader title="Files" description="Files you uploaded. Upload new ones on a product’s page, so the product delivers them." />
      <FilterBar label="Filter files">
        <FilterSelect label="Upload" value={list.filters.upload_status} onChange={(upload_status) => list.setFilters({ upload_status })} options={STATUSES} />
      </FilterBar>
      {list.filters.product_id && (
        <ul className="chips" aria-label="Other filters">
          <li>
            Product: {product.data?.name ?? list.filters.product_id}
            <button type="button" className="chip-remove" aria-label="Remove the product filter" onClick={() => list.setFilters({ product_id: '' })}>
              ×
            </button>
          </li>
        </ul>
      )}
      {page.isPending && <Loading what="files" />}
      <ErrorMessage error={page.error} />
      {page.data && page.data.data.length === 0 && <Empty title="No files.">Open a product that delivers files and upload one there.</Empty>}
      {page.data && page.data.data.length > 0 && (
        <>
          <Table<File>
            caption="Files"
            rows={page.data.data}
            rowKey={(file) => file.id}
            columns={[
              { header: 'File', rowHeader: true, cell: (file) => file.file_name },
              { header: 'Product', cell: (file) => <ProductLink id={file.product_id} /> },
              { header: 'Size', cell: (file) => formatBytes(file.file_size) },
              { header: 'Status', cell: (file) => <Badge status={file.upload_status} label={file.upload_status === 'PENDING' ? 'Upload not finished' : 'Uploaded'} /> },
              { header: 'Downloads', cell: (file) => formatCount(file.download_count) },
              { header: 'Added', cell: (file) => <Time value={file.created_at} /> },
              {
                header: 'Actions',
                cell: (file) => (
                  <ConfirmButton label={file.upload_status === 'PENDING' ? 'Remove' : 'Delete'} ariaLabel={`Delete ${file.file_name}`} title={`Delete ${file.file_name}?`} confirmLabel="Delete file" onConfirm={() => remove.runAsync(file)}>
                    <p>
                      {file.upload_status === 'PENDING'
                        ? 'The unfinished upload and its storage reservation are removed.'
                        : 'Customers can no longer download it. A file a product still delivers can’t be deleted: remove it from the product first.'}
                    </p>
                  </ConfirmButton>
                ),
              },
            ]}
          />
          <Pager
            noun="files"
            shown={page.data.data.length}
            pageIndex={list.pageIndex}
            pageSize={PAGE_SIZE}
            total={page.data.total}
            nextLink={page.data.has_more && page.data.next_cursor ? list.nextLink(page.data.next_cursor) : null}
            previousLink={list.previousLink}
          />
        </>
      )}
    </>
  );
}
