import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { idempotent, unwrap, unwrapPage } from '../../api/client';
import { describeFailure } from '../../lib/errors';
import { useListState, usePage } from '../../lib/list';
import { useApi, useMode, useModePath } from '../../lib/mode';
import { useCan } from '../../lib/permissions';
import { useWrite } from '../../lib/write';
import { Badge } from '../../ui/badge';
import { ConfirmButton } from '../../ui/confirm';
import { Id, Secret } from '../../ui/copy';
import { Facts, PageHeader, Section } from '../../ui/page';
import { ListView } from '../../ui/list-view';
import { Empty, ErrorMessage, Loading } from '../../ui/states';
import { Time } from '../../ui/time';
import { AttemptsTable } from './attempts-table';
import { EndpointForm, type EndpointBody } from './endpoint-form';

/** One endpoint: edit, disable or enable, rotate the secret, send a test event, delete; its attempts. */
export function EndpointPage() {
  const { endpointId = '' } = useParams();
  const can = useCan();
  const api = useApi();
  const mode = useMode();
  const path = useModePath();
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const pathParams = { params: { path: { endpoint_id: endpointId } } };
  const endpoint = useQuery({
    queryKey: [mode, 'webhook-endpoints', 'one', endpointId],
    queryFn: async () => unwrap(await api.GET('/v1/webhook-endpoints/{endpoint_id}', pathParams)),
  });
  const invalidates = [['webhook-endpoints']];
  const update = useWrite({
    mutationFn: async (body: EndpointBody | { disabled: boolean }) => unwrap(await api.PATCH('/v1/webhook-endpoints/{endpoint_id}', { ...pathParams, body })),
    invalidates,
    onSuccess: () => setEditing(false),
  });
  const rotate = useWrite({
    mutationFn: async (_: undefined, key: string) => unwrap(await api.POST('/v1/webhook-endpoints/{endpoint_id}/rotate-secret', { ...pathParams, ...idempotent(key) })),
    invalidates,
    onSuccess: (rotated) => setSecret(rotated.secret),
  });
  const remove = useWrite({
    mutationFn: async () => unwrap(await api.DELETE('/v1/webhook-endpoints/{endpoint_id}', pathParams)),
    invalidates,
    onSuccess: () => navigate(path('webhooks')),
  });
  const test = useWrite({
    mutationFn: async (_: undefined, key: string) => unwrap(await api.POST('/v1/webhook-endpoints/{endpoint_id}/test', { ...pathParams, ...idempotent(key) })),
    invalidates,
  });
  if (endpoint.isPending) return <Loading what="the endpoint" />;
  if (endpoint.error || !endpoint.data) return <ErrorMessage error={endpoint.error} />;
  const data = endpoint.data;
  return (
    <>
      <PageHeader
        back={{ to: path('webhooks'), label: 'Webhooks' }}
        title={
          <>
            <span className="break">{data.url}</span> <Badge status={data.disabled ? 'disabled' : 'enabled'} label={data.disabled ? 'Disabled' : 'Enabled'} />
          </>
        }
        description={data.description ?? undefined}
        actions={
          can('webhooks:manage') && (
          <>
            <button type="button" className="primary" disabled={test.isPending} onClick={() => test.run(undefined)}>
              {test.isPending ? 'Sending…' : 'Send test event'}
            </button>
            <button type="button" className="secondary" disabled={editing} onClick={() => setEditing(true)}>
              Edit
            </button>
            {data.disabled ? (
              <button type="button" className="secondary" disabled={update.isPending} onClick={() => update.run({ disabled: false })}>
                Enable
              </button>
            ) : (
              <ConfirmButton label="Disable" danger={false} className="secondary" title={`Disable ${data.url}?`} confirmLabel="Disable endpoint" onConfirm={() => update.runAsync({ disabled: true })}>
                <p>No events are sent to it until you enable it again; events that happen meanwhile are not delivered to it later.</p>
              </ConfirmButton>
            )}
            <ConfirmButton label="Rotate secret" danger={false} className="secondary" title="Rotate the signing secret?" confirmLabel="Rotate secret" onConfirm={() => rotate.runAsync(undefined)}>
              <p>A new secret signs every delivery from now on. The old one keeps signing alongside it for a while, so you can deploy the new one without losing events.</p>
            </ConfirmButton>
            <ConfirmButton label="Delete" title={`Delete the endpoint ${data.url}?`} confirmLabel="Delete endpoint" onConfirm={() => remove.runAsync(undefined)}>
              <p>No more events are sent to it, retries included. This can’t be undone.</p>
            </ConfirmButton>
          </>
          )
        }
      />
      {test.data && (
        <p role="status" className={test.data.succeeded ? 'notice good' : 'notice bad'}>
          Test event {test.data.succeeded ? 'delivered' : 'failed'}: {test.data.status_code === null ? (test.data.error ?? 'no answer') : `HTTP ${test.data.status_code}`} in {test.data.duration_ms} ms.
        </p>
      )}
      {[test.error, update.error].filter(Boolean).map((error, index) => (
        <p key={index} role="alert" className="error">
          {describeFailure(error)}
        </p>
      ))}
      {secret && (
        <Section title="New signing secret">
          <p>Shown only this once. {data.previous_secret_expires_at && <>The previous secret keeps signing until <Time value={data.previous_secret_expires_at} />.</>}</p>
          <Secret value={secret} what="the new signing secret" testId="rotated-secret" />
        </Section>
      )}
      {editing ? (
        <Section title="Edit the endpoint">
          <EndpointForm endpoint={data} mode={mode} submitLabel="Save changes" pending={update.isPending} error={update.error} onSubmit={update.run} onCancel={() => setEditing(false)} />
        </Section>
      ) : (
        <Section title="Details">
          <Facts
            items={[
              ['Endpoint id', <Id key="id" value={data.id} />],
              ['Events', data.enabled_events.includes('*') ? 'Every event' : data.enabled_events.join(', ')],
              ['State', data.disabled ? (data.disabled_reason === 'endpoint_gone' ? 'Disabled: it answered 410 Gone' : 'Disabled by hand') : 'Enabled'],
              ['Added', <Time key="created" value={data.created_at} />],
            ]}
          />
        </Section>
      )}
      <Attempts endpointId={endpointId} />
    </>
  );
}

function Attempts({ endpointId }: { endpointId: string }) {
  const api = useApi();
  const path = useModePath();
  const list = useListState([] as const);
  const page = usePage(
    'webhook-endpoints',
    list,
    async (paging) => unwrapPage(await api.GET('/v1/webhook-endpoints/{endpoint_id}/deliveries', { params: { path: { endpoint_id: endpointId }, query: paging } })),
    { attempts: endpointId },
  );
  return (
    <Section title="Delivery attempts">
      <ListView
        page={page}
        list={list}
        noun="attempts"
        empty={
          <Empty title="Nothing sent yet.">
            Send a test event, or <Link to={path('entitlements/new')}>grant a product</Link> to make one.
          </Empty>
        }
      >
        {(rows) => (
          <AttemptsTable rows={rows} caption="Delivery attempts to this endpoint" endpointId={endpointId} />
        )}
      </ListView>
    </Section>
  );
}
