import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { unwrap, unwrapPage } from '../../api/client';
import { formatCount, humanize } from '../../lib/format';
import { useApi, useMode, useModePath } from '../../lib/mode';
import { Badge } from '../../ui/badge';
import { Id } from '../../ui/copy';
import { JsonView } from '../../ui/json';
import { ProductLink, useProductName } from '../../ui/names';
import { Facts, PageHeader, Section } from '../../ui/page';
import { Empty, ErrorMessage, Loading } from '../../ui/states';
import { Time } from '../../ui/time';
import { useCan } from '../../lib/permissions';
import { useWrite } from '../../lib/write';
import { EntitlementActions } from './entitlement-actions';
import { EntitlementForm, type EntitlementChanges } from './entitlement-form';
import { LicenseKeys } from '../licenses/license-keys';
import { actorText } from '../audit-log/actor-text';

/** The reason typed when revoking or suspending, as the event's entitlement carries it. */
export function reasonOf(event: { type: string; data: { object: Record<string, unknown> } }): string | null {
  const field = event.type === 'entitlement.revoked' ? 'revocation_reason' : event.type === 'entitlement.suspended' ? 'suspension_reason' : null;
  const reason = field === null ? null : event.data.object[field];
  return typeof reason === 'string' && reason.length > 0 ? reason : null;
}

/** One entitlement: what it gives, the actions its status allows, and its history (its events). */
export function EntitlementPage() {
  const can = useCan();
  const { entitlementId = '' } = useParams();
  const api = useApi();
  const mode = useMode();
  const path = useModePath();
  const location = useLocation();
  // The notice the grant left ("Granted.") belongs to that grant: the next write on the page clears it.
  const [noticeCleared, setNoticeCleared] = useState<string | null>(null);
  const queryClient = useQueryClient();
  useEffect(
    () =>
      queryClient.getMutationCache().subscribe((event) => {
        if (event.type === 'added') setNoticeCleared(location.key);
      }),
    [queryClient, location.key],
  );
  const notice = noticeCleared === location.key ? undefined : (location.state as { notice?: string } | null)?.notice;
  const entitlement = useQuery({
    queryKey: [mode, 'entitlements', 'one', entitlementId],
    queryFn: async () => unwrap(await api.GET('/v1/entitlements/{entitlement_id}', { params: { path: { entitlement_id: entitlementId } } })),
  });
  const product = useProductName(entitlement.data?.product_id);
  const [editing, setEditing] = useState(false);
  const update = useWrite({
    mutationFn: async (body: EntitlementChanges) => unwrap(await api.PATCH('/v1/entitlements/{entitlement_id}', { params: { path: { entitlement_id: entitlementId } }, body })),
    invalidates: [['entitlements'], ['events']],
    onSuccess: () => setEditing(false),
  });
  const history = useQuery({
    queryKey: [mode, 'events', 'list', { object_id: entitlementId }, ''],
    queryFn: async () => unwrapPage(await api.GET('/v1/events', { params: { query: { object_id: entitlementId, limit: 100 } } })),
  });
  // Who acted, from the audit log (owners and admins): a change's row and its event commit in one transaction, so they share created_at.
  const canReadAudit = can('audit:read');
  const actors = useQuery({
    queryKey: [mode, 'audit-log', 'list', { object_id: entitlementId }, ''],
    queryFn: async () => unwrapPage(await api.GET('/v1/audit-log', { params: { query: { object_id: entitlementId, limit: 100 } } })),
    enabled: canReadAudit,
  });
  const actorAt = new Map((actors.data?.data ?? []).map((entry) => [entry.created_at, actorText(entry)]));
  if (entitlement.isPending) return <Loading what="the entitlement" />;
  if (entitlement.error || !entitlement.data) return <ErrorMessage error={entitlement.error} />;
  const data = entitlement.data;
  const label = `${product.data?.name ?? 'the product'} for ${data.store_customer_id}`;
  return (
    <>
      <PageHeader
        back={{ to: path('entitlements'), label: 'Entitlements' }}
        title={
          <>
            {product.data?.name ?? 'Entitlement'} <span className="muted">for</span> {data.store_customer_id} <Badge status={data.status} />
          </>
        }
      />
      {notice && (
        <p role="status" className="notice">
          {notice}
        </p>
      )}
      <Section title="Actions">
        <EntitlementActions entitlement={data} label={label} />
        {data.status !== 'revoked' && !data.parent_entitlement_id && !editing && (
          <p>
            {can('entitlements:write') && (
              <button type="button" className="secondary" onClick={() => setEditing(true)}>
                Change the end, usage limit or metadata
              </button>
            )}
          </p>
        )}
        {editing && <EntitlementForm entitlement={data} pending={update.isPending} error={update.error} onSubmit={update.run} onCancel={() => setEditing(false)} />}
      </Section>
      <Section title="Details">
        <Facts
          items={[
            ['Entitlement id', <Id key="id" value={data.id} />],
            ['Customer', <Link key="customer" to={path(`customers/${data.customer_id}`)}>{data.store_customer_id}</Link>],
            ['Product', <ProductLink key="product" id={data.product_id} name={product.data?.name} />],
            ['Source', humanize(data.source)],
            ['Granted', <Time key="granted" value={data.granted_at} />],
            ['Access ends', <Time key="expires" value={data.expires_at} empty="Never" />],
            ['Uses', data.usage_limit === null ? `${formatCount(data.usage_count)} (unlimited)` : `${formatCount(data.usage_count)} of ${formatCount(data.usage_limit)}`],
            ...(data.store_order_id ? [['Store order', `${data.store_order_id}${data.store_line_item_id ? ` · line ${data.store_line_item_id}` : ''}`] as [string, string]] : []),
            ...(data.parent_entitlement_id ? [['Through bundle', <Link key="parent" to={path(`entitlements/${data.parent_entitlement_id}`)}>The bundle’s entitlement</Link>] as [string, ReactNode]] : []),
            ...(data.suspension_reason ? [['Suspended because', data.suspension_reason] as [string, string]] : []),
            ...(data.revoked_at ? [['Revoked', <span key="revoked"><Time value={data.revoked_at} />{data.revocation_reason ? `: ${data.revocation_reason}` : ''}</span>] as [string, ReactNode]] : []),
          ]}
        />
        {Object.keys(data.metadata ?? {}).length > 0 && <JsonView label="Metadata" value={data.metadata} />}
      </Section>
      <Section title="License key">
        <LicenseKeys filter={{ entitlement_id: data.id }} />
      </Section>
      <Section title="History">
        {history.isPending && <Loading what="the history" />}
        <ErrorMessage error={history.error} />
        {history.data?.data.length === 0 && <Empty title="No events recorded." />}
        {history.data && history.data.data.length > 0 && (
          <ol className="timeline">
            {history.data.data.map((event) => (
              <li key={event.id}>
                <Link to={path(`events/${event.id}`)}>{event.type}</Link> <Time value={event.created_at} />
                {actorAt.has(event.created_at) && <> by {actorAt.get(event.created_at)}</>}
                {reasonOf(event) && <> — reason: “{reasonOf(event)}”</>}
              </li>
            ))}
          </ol>
        )}
      </Section>
    </>
  );
}
