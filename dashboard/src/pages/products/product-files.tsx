import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { unwrap, unwrapPage, type Schemas } from '../../api/client';
import { describeFailure } from '../../lib/errors';
import { formatBytes } from '../../lib/format';
import { useApi, useMode } from '../../lib/mode';
import { useWrite } from '../../lib/write';
import { useSession } from '../../shell/session';
import { Badge } from '../../ui/badge';
import { ConfirmButton } from '../../ui/confirm';
import { Section } from '../../ui/page';
import { Empty, ErrorMessage, Loading } from '../../ui/states';
import { Table } from '../../ui/table';
import { Time } from '../../ui/time';
import { uploadFile } from './upload';

type File = Schemas['FileResponseDto'];

/** The files a FILE product delivers: those uploaded onto it and those its fulfilment names. */
export function useProductFiles(product: Schemas['ProductResponseDto']) {
  const api = useApi();
  const mode = useMode();
  const uploaded = useQuery({
    queryKey: [mode, 'files', 'list', { product_id: product.id }, ''],
    queryFn: async () => unwrapPage(await api.GET('/v1/files', { params: { query: { product_id: product.id, limit: 100 } } })),
  });
  const known = new Set((uploaded.data?.data ?? []).map((file) => file.id));
  const linked = useQueries({
    queries: product.fulfillment_config.file_ids
      .filter((id) => uploaded.data && !known.has(id))
      .map((id) => ({
        queryKey: [mode, 'files', 'one', id],
        queryFn: async () => unwrap(await api.GET('/v1/files/{file_id}', { params: { path: { file_id: id } } })),
      })),
  });
  const files = [...(uploaded.data?.data ?? []), ...linked.flatMap((query) => (query.data ? [query.data] : []))];
  return { files, isPending: uploaded.isPending, error: uploaded.error };
}

export function ProductFiles({ product }: { product: Schemas['ProductResponseDto'] }) {
  const api = useApi();
  const mode = useMode();
  const session = useSession();
  const queryClient = useQueryClient();
  const { files, isPending, error } = useProductFiles(product);
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
  const remove = useWrite({
    mutationFn: async (file: File) => unwrap(await api.DELETE('/v1/files/{file_id}', { params: { path: { file_id: file.id } } })),
    invalidates: [['files']],
  });
  const uploadsElsewhere = session.upload_origin && session.upload_origin !== window.location.origin;
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
            {
              header: 'Actions',
              cell: (file) => (
                <ConfirmButton
                  label="Delete"
                  ariaLabel={`Delete ${file.file_name}`}
                  title={`Delete ${file.file_name}?`}
                  confirmLabel="Delete file"
                  onConfirm={async () => {
                    await remove.runAsync(file);
                    await queryClient.invalidateQueries({ queryKey: [mode, 'products'] });
                  }}
                >
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
      )}
      <div className="upload">
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
          {uploadsElsewhere ? ` Files upload to ${session.upload_origin} (PUBLIC_BASE_URL).` : ''}
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
      </div>
    </Section>
  );
}
