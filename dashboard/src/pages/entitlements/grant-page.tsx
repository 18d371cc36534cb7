import { useNavigate, useSearchParams } from 'react-router';
import { idempotent, unwrap } from '../../api/client';
import { useApi, useModePath } from '../../lib/mode';
import { useWrite } from '../../lib/write';
import { useProductName } from '../../ui/names';
import { PageHeader } from '../../ui/page';
import { Loading } from '../../ui/states';
import { GrantForm, type GrantBody } from './grant-form';

/** Grant a product: `?product_id=` and `?store_customer_id=` fill the form (from a product or customer page). */
export function GrantPage() {
  const api = useApi();
  const path = useModePath();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const productId = params.get('product_id');
  const product = useProductName(productId);
  const grant = useWrite({
    mutationFn: async (body: GrantBody, key: string) => unwrap(await api.POST('/v1/entitlements', { body, ...idempotent(key) })),
    invalidates: [['entitlements'], ['customers']],
    onSuccess: (entitlement) => navigate(path(`entitlements/${entitlement.id}`), { state: { notice: 'Granted.' } }),
  });
  return (
    <>
      <PageHeader title="Grant a product" description="Gives a customer access now, as your store would on a purchase (source: manual)." back={{ to: path('entitlements'), label: 'Entitlements' }} />
      {productId && product.isPending ? (
        <Loading what="the product" />
      ) : (
        <GrantForm initialCustomer={params.get('store_customer_id') ?? ''} initialProduct={product.data ?? null} pending={grant.isPending} error={grant.error} onSubmit={grant.run} />
      )}
    </>
  );
}
