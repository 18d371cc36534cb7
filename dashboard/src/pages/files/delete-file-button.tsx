import { unwrap, type Schemas } from '../../api/client';
import { useApi } from '../../lib/mode';
import { useCan } from '../../lib/permissions';
import { useWrite } from '../../lib/write';
import { ConfirmButton } from '../../ui/confirm';

type File = Schemas['FileResponseDto'];

/**
 * Deletes a file after confirming: an unfinished upload with its storage reservation, or an
 * uploaded file no product delivers any more (the API refuses one still delivered: FILE_IN_USE).
 */
export function DeleteFileButton({ file }: { file: File }) {
  const api = useApi();
  const can = useCan();
  const remove = useWrite({
    mutationFn: async () => unwrap(await api.DELETE('/v1/files/{file_id}', { params: { path: { file_id: file.id } } })),
    invalidates: [['files'], ['products']],
  });
  if (!can('files:write')) return null;
  return (
    <ConfirmButton label={file.upload_status === 'PENDING' ? 'Remove' : 'Delete'} ariaLabel={`Delete ${file.file_name}`} title={`Delete ${file.file_name}?`} confirmLabel="Delete file" onConfirm={() => remove.runAsync(undefined)}>
      <p>
        {file.upload_status === 'PENDING'
          ? 'The unfinished upload and its storage reservation are removed.'
          : 'Customers can no longer download it. A file a product still delivers can’t be deleted: remove it from the product first.'}
      </p>
    </ConfirmButton>
  );
}
