import { useInfiniteQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { unwrapPage, type Schemas } from '../../api/client';
import { describeFailure } from '../../lib/errors';
import { formatBytes, formatCount } from '../../lib/format';
import { useApi, useMode } from '../../lib/mode';
import { useWrite } from '../../lib/write';
import { useCan } from '../../lib/permissions';
import { Badge } from '../../ui/badge';
import { Section } from '../../ui/page';
import { Empty, ErrorMessage, Loading } from '../../ui/states';
import { Table } from '../../ui/table';
import { Time } from '../../ui/time';
import { DeleteFileButton } from '../files/delete-file-button';
import { uploadFile } from './upload';

type File = Schemas['FileResponseDto'];

const FILES_PER_PAGE = 100;

/**
 * The files a FILE product delivers (`/v1/files?product_id=` lists every file its fulfilment
 * names), page by page: more pages load when asked, and a page that fails says so.
 */
export function useProductFiles(product: Schemas['ProductResponseDto']) {
  const api = useApi();
  const mode = useMode();
  const pages = useInfiniteQuery({
    queryKey: [mode, 'files', 'list', { product_id: product.id }, 'all'],
    initialPageParam: '',
    queryFn: async ({ pageParam }) =>
      unwrapPage(await api.GET('/v1/files', { params: { query: { product_id: product.id, limit: FILES_PER_PAGE, ...(pageParam ? { cursor: pageParam } : {}) } } })),
    getNextPageParam: (last) => (last.has_more && last.next_cursor ? last.next_cursor : undefined),
  });
  const files = pages.data?.pages.flatMap((page) => page.data) ?? [];
  return {
    files,
    total: pages.data?.pages[0]?.total,
    isPending: pages.isPending,
    error: pages.error,
    hasMore: pages.hasNextPage,
    loadingMore: pages.isFetchingNextPage,
    loadMore: () => void pages.fetchNextPage(),
  };
}

export function ProductFiles({ product }: { product: Schemas['ProductResponseDto'] }) {
  const api = useApi();
  const can = useCan();
  const { files, total, isPending, error, hasMore, loadingMore, loadMore } = useProductFiles(product);
  const [progress, setProgress] = useState<number | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const upload = useWrite({
    mutationFn: (file: globalThis.File, key: string) => uploadFile(api, product.id, file, key, setProgress),
    invalidates: [['files'], ['products']],
    signature: (file) => `${file.name}:${file.size}:${file.lastModified}`,
    onSuccess: () => {
      if (input.current) input.current.value = '';
    },
  });
  if (product.fulfillment_config.delivery_method !== 'FILE') {
    return (
      <Section title="Files">
        <p className="muted">This product delivers {product.fulfillment_config.delivery_method === 'URL' ? 'a link' : 'instructions'}, not files. Edit its delivery to “Files” to upload some.</p>
      </Section>
    );
  }
  return (
    <Section title="Files">
      {isPending && <Loading what="files" />}
      <ErrorMessage error={error} />
      {!isPending && files.length === 0 && <Empty title="No files yet.">Upload the first file customers of this product download.</Empty>}
      {files.length > 0 && (
        <Table<File>
          caption={`Files of ${product.name}`}
          rows={files}
          rowKey={(file) => file.id}
          columns={[
            { header: 'File', rowHeader: true, cell: (file) => file.file_name },
            { header: 'Size', cell: (file) => formatBytes(file.file_size) },
            { header: 'Status', cell: (file) => <Badge status={file.upload_status} label={file.upload_status === 'PENDING' ? 'Upload not finished' : 'Uploaded'} /> },
            { header: 'Downloads', cell: (file) => file.download_count },
            { header: 'Added', cell: (file) => <Time value={file.created_at} /> },
            ...(can('files:write') ? [{ header: 'Actions', cell: (file: File) => <DeleteFileButton file={file} /> }] : []),
          ]}
        />
      )}
      {files.length > 0 && (
        <p className="hint" aria-live="polite">
          {total !== undefined ? `${formatCount(files.length)} of ${formatCount(total)} files shown` : `${formatCount(files.length)} files shown`}
          {hasMore && (
            <>
              {' '}
              <button type="button" className="secondary small" disabled={loadingMore} onClick={loadMore}>
                {loadingMore ? 'Loading…' : 'Show more files'}
              </button>
            </>
          )}
        </p>
      )}
      {can('files:write') && <div className="upload">
        <label htmlFor={`upload-${product.id}`}>Upload a file to {product.name}</label>
        <input
          ref={input}
          id={`upload-${product.id}`}
          type="file"
          disabled={upload.isPending}
          aria-describedby={`upload-${product.id}-hint`}
          onChange={(event) => {
            const chosen = event.target.files?.[0];
            if (chosen) {
              setProgress(0);
              upload.run(chosen);
            }
          }}
        />
        <p id={`upload-${product.id}-hint`} className="hint">
          PDF, EPUB, ZIP, audio, video, images, fonts and office documents, up to your plan’s file size.
        </p>
        {upload.isPending && progress !== null && (
          <p role="status">
            Uploading… <progress max={1} value={progress} aria-label="Upload progress" /> {Math.round(progress * 100)}%
          </p>
        )}
        {upload.error ? (
          <p role="alert" className="error">
            {describeFailure(upload.error)}
          </p>
        ) : null}
      </div>}
    </Section>
  );
}
