import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { unwrap } from '../../api/client';
import { useApi, useMode, useModePath } from '../../lib/mode';
import { Badge } from '../../ui/badge';
import { Id } from '../../ui/copy';
import { ProductLink } from '../../ui/names';
import { Facts, PageHeader, Section } from '../../ui/page';
import { ErrorMessage, Loading } from '../../ui/states';
import { Time } from '../../ui/time';

export function SubscriptionPage() {
  const { subscriptionId = '' } = useParams();
  const api = useApi();
  const mode = useMode();
  const path = useModePath();
  const subscription = useQuery({
    queryKey: [mode, 'subscriptions', 'one', subscriptionId],
    queryFn: async () => unwrap(await api.GET('/v1/subscriptions/{subscription_id}', { params: { path: { subscription_id: subscriptionId } } })),
  });
  if (subscription.isPending) return <Loading what="the subscription" />;
  if (subscription.error || !subscription.data) return <ErrorMessage error={subscription.error} />;
  const data = subscription.data;
  return (
    <>
      <PageHeader
        back={{ to: path('subscriptions'), label: 'Subscriptions' }}
        title={
          <>
            Subscription {data.store_subscription_id} <Badge status={data.status} />
          </>
        }
      />
      <Section title="Details">
        <Facts
          items={[
            ['Subscription id', <Id key="id" value={data.id} />],
            ['Customer', <Link key="customer" to={path(`customers/${data.customer_id}`)}>{data.store_customer_id}</Link>],
            ['Product', <ProductLink key="product" id={data.product_id} name={data.product_name} />],
            ['Period ends', <Time key="period" value={data.current_period_end} empty="Not given" />],
            ['Cancels at period end', data.cancel_at_period_end ? 'Yes' : 'No'],
            ['Store last updated it', <Time key="store" value={data.store_updated_at} />],
            [
              'Access',
              data.entitlement_id ? (
                <Link key="entitlement" to={path(`entitlements/${data.entitlement_id}`)}>
                  {data.entitlement_status ? `Entitlement (${data.entitlement_status})` : 'Entitlement'}
                </Link>
              ) : (
                'None granted'
              ),
            ],
          ]}
        />
      </Section>
    </>
  );
}
