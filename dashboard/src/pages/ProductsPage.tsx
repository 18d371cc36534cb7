import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, unwrap, type Schemas } from '../api/client';
import { Empty, ErrorMessage, formatBytes, Loading, Section } from '../components';

const TYPES = ['permanent', 'time_limited', 'usage_limited', 'subscription_linked'] as const;

/** Browser upload through the API's presigned flow: upload-url, PUT the bytes, confirm. */
async function uploadFile(productId: string, file: File): Promise<void> {
  const upload = unwrap(
    await api.POST('/v1/files/upload-url', {
      body: { file_name: file.name, file_size: file.size, mime_type: (file.type || 'application/octet-stream') as Schemas['CreateUploadUrlDto']['mime_type'], product_id: productId },
    }),
  );
  const put = await fetch(upload.upload_url, { method: 'PUT', headers: upload.upload_headers as Record<string, string>, body: file });
  if (!put.ok) throw new Error(`The upload was refused (${put.status})`);
  unwrap(await api.POST('/v1/files/{file_id}/confirm', { params: { path: { file_id: upload.file_id } } }));
}

export function ProductsPage() {
  const queryClient = useQueryClient();
  const products = useQuery({ queryKey: ['products'], queryFn: async () => unwrap(await api.GET('/v1/products', { params: { query: { limit: 100 } } })) });
  const files = useQuery({ queryKey: ['files'], queryFn: async () => unwrap(await api.GET('/v1/files', { params: { query: { limit: 100 } } })) });
  const refresh = () => void queryClient.invalidateQueries({ predicate: (query) => ['products', 'files'].includes(String(query.queryKey[0])) });
  const [editing, setEditing] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: async (body: { name: string; entitlement_type: (typeof TYPES)[number] }) => unwrap(await api.POST('/v1/products', { body })),
    onSuccess: refresh,
  });
  const rename = useMutation({
    mutationFn: async ({ id, name }: { id: string; name: string }) =>
      unwrap(await api.PATCH('/v1/products/{product_id}', { params: { path: { product_id: id } }, body: { name } })),
    onSuccess: () => {
      setEditing(null);
      refresh();
    },
  });
  const archive = useMutation({
    mutationFn: async (id: string) => unwrap(await api.DELETE('/v1/products/{product_id}', { params: { path: { product_id: id } } })),
    onSuccess: refresh,
  });
  const upload = useMutation({ mutationFn: ({ id, file }: { id: string; file: File }) => uploadFile(id, file), onSuccess: refresh });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    create.mutate({ name: String(form.get('name')), entitlement_type: String(form.get('type')) as (typeof TYPES)[number] });
    event.currentTarget.reset();
  };
  return (
    <>
      <h1>Products</h1>
      <Section title="Create a product">
        <form onSubmit={submit} aria-label="Create a product">
          <label>
            Name
            <input name="name" required maxLength={200} />
          </label>
          <label>
            Entitlement type
            <select name="type" defaultValue="permanent">
              {TYPES.map((type) => (
                <option key={type}>{type}</option>
              ))}
            </select>
          </label>
          <button type="submit">Create product</button>
        </form>
        <ErrorMessage error={create.error} />
      </Section>
      <Section title="All products">
        {products.isPending && <Loading what="products" />}
        <ErrorMessage error={products.error ?? rename.error ?? archive.error ?? upload.error} />
        {upload.isPending && <p role="status">Uploading…</p>}
        {products.data?.length === 0 && <Empty>No products yet: create one above.</Empty>}
        {products.data && products.data.length > 0 && (
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Id</th>
                <th scope="col">Type</th>
                <th scope="col">Status</th>
                <th scope="col">Files</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {products.data.map((product) => (
                <tr key={product.id} data-product-id={product.id}>
                  <td>
                    {editing === product.id ? (
                      <form
                        aria-label={`Rename ${product.name}`}
                        onSubmit={(event) => {
                          event.preventDefault();
                          rename.mutate({ id: product.id, name: String(new FormData(event.currentTarget).get('name')) });
                        }}
                      >
                        <label>
                          New name
                          <input name="name" defaultValue={product.name} required />
                        </label>
                        <button type="submit">Save</button>
                      </form>
                    ) : (
                      product.name
                    )}
                  </td>
                  <td>
                    <code>{product.id}</code>
                  </td>
                  <td>{product.entitlement_type}</td>
                  <td>{product.status}</td>
                  <td>
                    <ul>
                      {(files.data ?? [])
                        .filter((file) => file.product_id === product.id)
                        .map((file) => (
                          <li key={file.id}>
                            {file.file_name} ({formatBytes(file.file_size)}, {file.upload_status})
                          </li>
                        ))}
                    </ul>
                    {product.status !== 'archived' && (
                      <label>
                        Upload a file to {product.name}
                        <input type="file" onChange={(event) => event.target.files?.[0] && upload.mutate({ id: product.id, file: event.target.files[0] })} />
                      </label>
                    )}
                  </td>
                  <td>
                    {product.status !== 'archived' && (
                      <>
                        <button type="button" className="secondary" onClick={() => setEditing(product.id)}>
                          Edit
                        </button>{' '}
                        <button type="button" className="secondary" onClick={() => archive.mutate(product.id)}>
                          Archive
                        </button>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
    </>
  );
}
