import { useNavigate } from 'react-router';
import { idempotent, unwrap } from '../../api/client';
import { useApi, useModePath } from '../../lib/mode';
import { useWrite } from '../../lib/write';
import { PageHeader } from '../../ui/page';
import { ProductForm, type ProductBody } from './product-form';

export function NewProductPage() {
  const api = useApi();
  const path = useModePath();
  const navigate = useNavigate();
  const create = useWrite({
    mutationFn: async (body: ProductBody, key: string) => unwrap(await api.POST('/v1/products', { body, ...idempotent(key) })),
    invalidates: [['products']],
    onSuccess: (product) => navigate(path(`products/${product.id}`), { state: { notice: `${product.name} created.` } }),
  });
  return (
    <>
      <PageHeader title="New product" back={{ to: path('products'), label: 'Products' }} />
      <ProductForm submitLabel="Create product" pending={create.isPending} error={create.error} onSubmit={create.run} onCancel={() => navigate(path('products'))} />
    </>
  );
}
