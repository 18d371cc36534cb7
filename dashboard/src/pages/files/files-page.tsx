import { unwrapPage, type Schemas } from '../../api/client';
import { formatBytes, formatCount } from '../../lib/format';
import { presentFilters, useListState, usePage } from '../../lib/list';
import { useApi } from '../../lib/mode';
import { Badge } from '../../ui/badge';
import { FilterBar, FilterSelect } from '../../ui/filters';
import { ProductLink, useProductName } from '../../ui/names';
import { PageHeader } from '../../ui/page';
import { FilterChips, ListView } from '../../ui/list-view';
import { Empty } from '../../ui/states';
import { Table } from '../../ui/table';
import { Time } from '../../ui/time';
import { DeleteFileButton } from './delete-file-button';

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
  const page = usePage('files', list, async (paging) => {
    const filters = presentFilters(list.filters);
    return unwrapPage(await api.GET('/v1/files', { params: { query: { ...paging, ...filters, upload_status: filters.upload_status as File['upload_status'] | undefined } } }));
  });
  return (
    <>
      <PageHeader title="Files" description="Files you uploaded. Upload new ones on a product’s page, so the product delivers them." />
      <FilterBar label="Filter files">
        <FilterSelect label="Upload" value={list.filters.upload_status} onChange={(upload_status) => list.setFilters({ upload_status })} options={STATUSES} />
      </FilterBar>
      <FilterChips chips={[list.filters.product_id ? { what: 'product', label: `Product: ${product.data?.name ?? list.filters.product_id}`, onRemove: () => list.setFilters({ product_id: '' }) } : null]} />
      <ListView page={page} list={list} noun="files" empty={<Empty title="No files.">Open a product that delivers files and upload one there.</Empty>}>
        {(rows) => (
          <Table<File>
            caption="Files"
            rows={rows}
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
                  <DeleteFileButton file={file} />
                ),
              },
            ]}
          />
        )}
      </ListView>
    </>
  );
}
